#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run of the native core: builds achilles_sanitize
# (native/CMakeLists.txt, option ACHILLES_SANITIZE) in build/sanitize, writes every bundled scene,
# every import fixture (limits, frictionloss, tendons, actuators) and the collision test world as
# text models, and steps, collides and reads the constraint rows of each at every lane width and
# precision this CPU supports (native/tests/sanitize_main.cpp). Exits non-zero on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/sanitize
models="$out/models"
npx tsx test/helpers/dump-models.ts "$models"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S native -B "$out" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug -DACHILLES_SANITIZE=ON >/dev/null
cmake --build "$out" --target achilles_sanitize -j 2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/achilles_sanitize" "$models"/*.txt

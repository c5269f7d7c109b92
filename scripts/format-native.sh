#!/usr/bin/env bash
# The C++ of native/ as clang-format writes it (native/.clang-format), as prettier keeps the
# TypeScript: `npm run format:native` rewrites the files, `npm run format:native:check` (CI) lists
# the ones that differ and fails. clang-format is Debian's (apt-get install clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format is not installed (apt-get install clang-format)" >&2; exit 1; }
mapfile -t files < <(git ls-files native python/native | grep -E '\.(cpp|hpp|cc)$')
if [ "${1:-}" = "--check" ]; then
  clang-format --dry-run --Werror "${files[@]}"
else
  clang-format -i "${files[@]}"
fi

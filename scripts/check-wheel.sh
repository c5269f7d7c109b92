#!/usr/bin/env bash
# The Python wheel as a user gets it (issue 51): installed into a fresh venv with no compiler, then used
# with no Node on PATH and no checkout on the import path. Steps:
#   1. the wheel holds the compiled core, every module of python/src/achilles and the task files of
#      tasks/gymnasium (copied in by python/CMakeLists.txt), and nothing else;
#   2. while Node is still here, the Node engine writes the references the venv's tests compare with
#      (`achilles compile` documents and node_reference.mjs runs of them);
#   3. `python3 -m venv`, then the wheel, numpy, mujoco, gymnasium[mujoco] and pytest from pip (the configured
#      index), with every compiler and cmake shadowed by a stub that records its call: none may run;
#   4. the tests that must pass without Node, in that venv, from a scratch directory, with PATH holding
#      only the venv's bin (no node) and no ACHILLES_* variables pointing into the checkout:
#      python/tests/test_wheel_install.py, and the task files against Gymnasium's own mjData
#      (test_task_definitions.py) with their formula language (test_expr.py), Gymnasium's envs against
#      Gymnasium's own (test_gym_vs_gymnasium.py), rollout and the FD Jacobians against MuJoCo's.
# Usage: bash scripts/check-wheel.sh [WHEEL]   (without WHEEL it builds one: pip wheel ./python, which
# compiles the core; CI passes the one it built for the pytest run). Needs the built CLI (npm ci).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-wheel: FAIL: $*" >&2; exit 1; }
say() { echo "check-wheel: $*"; }
t0=$(date +%s)

wheel=${1:-}
if [ -z "$wheel" ]; then
  CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" python3 -m pip wheel --quiet --no-deps ./python -w "$work/dist"
  wheel=$(ls "$work"/dist/achilles-*.whl)
fi
[ -f "$wheel" ] || fail "no wheel at $wheel"
wheel=$(realpath "$wheel")

# 1. What the wheel holds.
python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel" > "$work/files.txt"
grep -Eq '^achilles/_native\..*\.so$' "$work/files.txt" || fail "the wheel has no compiled core (achilles/_native*.so)"
for f in $(cd python/src && find achilles -name '*.py'); do
  grep -qx "$f" "$work/files.txt" || fail "the wheel lacks $f"
done
grep -qx 'achilles/_repo.py' "$work/files.txt" || fail "the wheel lacks achilles/_repo.py (python/CMakeLists.txt writes it)"
tasks=0
for f in tasks/gymnasium/*.json; do
  grep -qx "achilles/$f" "$work/files.txt" || fail "the wheel lacks achilles/$f"
  tasks=$((tasks + 1))
done
[ "$tasks" -ge 10 ] || fail "only $tasks task files in tasks/gymnasium"
if grep -Ev '^achilles/|^achilles-[^/]*\.dist-info/' "$work/files.txt"; then fail "files outside the package in the wheel"; fi
if grep -E '\.(in|cpp|hpp|o|a)$|/CMake|/tests?/' "$work/files.txt"; then fail "sources, build outputs or tests in the wheel"; fi
say "$(basename "$wheel"): $(du -k "$wheel" | cut -f1) KiB, $(wc -l < "$work/files.txt") files, $tasks task files"

# 2. The Node engine's references (then Node leaves PATH). Cases: a contact scene in f32 on SSE2's 4
# lanes, an MJCF model with activations in f64 on 1 lane (every x86-64 CPU runs both).
refs=$work/refs
mkdir -p "$refs"
node_bin=$(command -v node) || fail "node is needed to write the references (before the Node-less run)"
while read -r name scene precision lanes copies steps; do
  node bin/achilles.js compile "$scene" > "$refs/$name.json"
  node python/tests/node_reference.mjs "$scene" "$precision" "$lanes" "$copies" "$steps" 1 > "$refs/$name.out.json"
  printf '{"document": "%s", "reference": "%s", "precision": "%s", "lanes": %s, "copies": %s, "steps": %s}\n' \
    "$refs/$name.json" "$refs/$name.out.json" "$precision" "$lanes" "$copies" "$steps" >> "$refs/references.jsonl"
done <<'EOF'
quadruped scenes/quadruped.arow f32 4 5 60
servos test/fixtures/import/mjcf-general-servos.xml f64 1 3 150
EOF

# 3. A fresh venv; no compiler may run while it is filled.
stubs=$work/no-toolchain
mkdir -p "$stubs"
for tool in cmake g++ gcc c++ cc clang clang++ make ninja ld; do
  printf '#!/bin/sh\necho "%s $*" >> %s/calls.log\nexit 1\n' "$tool" "$work" > "$stubs/$tool"
  chmod +x "$stubs/$tool"
done
venv=$work/venv
t1=$(date +%s)
python3 -m venv "$venv"
PATH="$stubs:$PATH" CXX="$stubs/g++" CC="$stubs/gcc" "$venv/bin/python" -m pip install --quiet --retries 0 \
  "$wheel" numpy mujoco "gymnasium[mujoco]" pytest > "$work/install.log" 2>&1 || { cat "$work/install.log"; fail "pip install into the venv failed"; }
[ ! -e "$work/calls.log" ] || { cat "$work/calls.log"; fail "the install called a compiler or cmake"; }
say "venv filled in $(( $(date +%s) - t1 ))s, no compiler called"

# 4. The Node-less tests: PATH is the venv's bin alone. Gymnasium's envs run from MuJoCo's compile of
# their models (achilles.put_model) and are compared with Gymnasium's own step for step
# (test_gym_vs_gymnasium.py, about 11 s); rollout and the FD Jacobians against MuJoCo's own
# (test_rollout.py, test_derivatives.py), and every model door (test_model_door.py).
nodeless=("$root/python/tests/test_wheel_install.py" "$root/python/tests/test_task_definitions.py" "$root/python/tests/test_expr.py"
  "$root/python/tests/test_gym_vs_gymnasium.py" "$root/python/tests/test_rollout.py" "$root/python/tests/test_derivatives.py"
  "$root/python/tests/test_model_door.py" "$root/python/tests/test_readme_example.py")
grep -qx 'achilles/_put_model.py' "$work/files.txt" || fail "the wheel has no achilles/_put_model.py"
PATH="$venv/bin" command -v node >/dev/null && fail "node is still on the venv's PATH"
cd "$work"
env -u ACHILLES_NODE_CLI -u ACHILLES_TASK_DIR -u PYTHONPATH -u PYTHONHOME PATH="$venv/bin" \
  ACHILLES_WHEEL_CHECK_DIR="$refs" \
  "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider "${nodeless[@]}" \
  || fail "the Node-less tests failed in the venv"
say "done in $(( $(date +%s) - t0 ))s"

#!/usr/bin/env bash
# Installs the npm package as a user would and uses it (issue 29). Needs the source build from
# `npm ci` (prepack copies it into prebuilds/). Steps:
#   1. `npm pack` the repository into a scratch directory;
#   2. install the tarball into an empty project with every compiler and cmake shadowed by a stub
#      that records its call: the install must use the prebuilt engine, call none of them, and
#      leave no build/ behind;
#   3. `npx achilles run` a bundled scene (and one with its .ts controller) from a subdirectory;
#   4. an ESM import `import { loadScene, Batch } from 'achilles-sim'` that tsc type-checks (and a
#      deliberate type error it must reject: types that are `any` would pass anything), then runs;
#   5. the MuJoCo timing addon: the prebuilt one loads against a MuJoCo found at run time (a copy of
#      the library elsewhere, so its path proves which one was used), and without MuJoCo the bench
#      says what is missing and how to build it;
#   6. the source fallback configures in the installed layout (cmake-js and node-addon-api found
#      beside the package, every native source shipped).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-package: FAIL: $*" >&2; exit 1; }
say() { echo "check-package: $*"; }

# 1. The tarball.
npm pack --pack-destination "$work" --loglevel warn >/dev/null
tgz=$(ls "$work"/achilles-sim-*.tgz)
say "packed $(basename "$tgz") ($(du -k "$tgz" | cut -f1) KiB)"
tar -tzf "$tgz" > "$work/files.txt" # listed once: grep -q on a pipe would SIGPIPE tar under pipefail
grep -qx 'package/prebuilds/linux-x64/achilles.node' "$work/files.txt" || fail "the tarball has no prebuilt engine"
if grep -E '^package/(test|reports|build|src/(engine|scene|cli))/' "$work/files.txt"; then fail "tests, reports, build outputs or TypeScript sources are in the tarball"; fi

# 2. Install with no toolchain: any call to these lands in calls.log and fails.
stubs=$work/no-toolchain
mkdir -p "$stubs"
for tool in cmake g++ gcc c++ cc clang clang++ make ninja ld; do
  printf '#!/bin/sh\necho "%s $*" >> %s/calls.log\nexit 1\n' "$tool" "$work" > "$stubs/$tool"
  chmod +x "$stubs/$tool"
done
project=$work/project
mkdir -p "$project/sub/dir"
echo '{ "name": "scratch", "version": "1.0.0", "private": true, "type": "module" }' > "$project/package.json"
t0=$(date +%s)
(cd "$project" && PATH="$stubs:$PATH" CXX="$stubs/g++" CC="$stubs/gcc" \
  npm install --prefer-offline --no-audit --no-fund --foreground-scripts "$tgz" > "$work/install.log" 2>&1) \
  || { cat "$work/install.log"; fail "npm install of the tarball failed"; }
took=$(( $(date +%s) - t0 ))
[ ! -e "$work/calls.log" ] || { cat "$work/calls.log"; fail "the install called a compiler or cmake"; }
grep -q 'using the prebuilt engine' "$work/install.log" || { cat "$work/install.log"; fail "the install did not report the prebuilt engine"; }
pkg=$project/node_modules/achilles-sim
[ ! -e "$pkg/build" ] || fail "the install left a build/ directory (it compiled something)"
say "installed in ${took}s with the prebuilt engine, no compiler called"

# 3. The CLI from a subdirectory of the project, on the bundled scenes, toolchain still hidden.
cd "$project/sub/dir"
PATH="$stubs:$PATH" npx --no-install achilles run "$pkg/scenes/double-pendulum.arow" --duration 0.2 --out run-dp > "$work/run.log" 2>&1 \
  || { cat "$work/run.log"; fail "npx achilles run on a bundled scene failed"; }
[ -s run-dp/trace.csv ] || fail "the run wrote no trace.csv"
PATH="$stubs:$PATH" npx --no-install achilles run "$pkg/scenes/ball-on-plate.arow" --allow-controller --duration 0.2 --out run-ctrl > "$work/run.log" 2>&1 \
  || { cat "$work/run.log"; fail "npx achilles run on the bundled scene with a .ts controller failed"; }
[ ! -e "$work/calls.log" ] || { cat "$work/calls.log"; fail "running called a compiler or cmake"; }
say "npx achilles run works on the bundled scenes from $project/sub/dir"

# 4. The public entry point, typed and run.
cd "$project"
cat > tsconfig.json <<EOF
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
  "outDir": "out", "typeRoots": ["$root/node_modules/@types"], "types": ["node"] }, "files": ["use.mts"] }
EOF
cat > use.mts <<'EOF'
import { loadScene, Batch, RlEnv, type ModelDesc } from 'achilles-sim';
const model: ModelDesc = loadScene('node_modules/achilles-sim/scenes/double-pendulum.arow');
const batch = new Batch(model, { copies: 4, precision: 'f64' });
batch.step(10);
const env = new RlEnv(model, { copies: 2 });
env.step();
if (!(batch.time > 0) || !Number.isFinite(batch.q[0]) || env.copies !== 2) throw new Error('the batch did not step');
console.log(`imported ok: t = ${batch.time}`);
EOF
node "$root/node_modules/typescript/bin/tsc" -p tsconfig.json || fail "tsc rejected a correct use of the public API"
node out/use.mjs | grep -q 'imported ok' || fail "the compiled import did not run"
echo 'import { Batch } from "achilles-sim"; export const wrong: string = Batch.prototype.step;' > wrong.mts
sed -i 's/"use.mts"/"wrong.mts"/' tsconfig.json
if node "$root/node_modules/typescript/bin/tsc" -p tsconfig.json > /dev/null; then fail "tsc accepted a type error: the package's types are not seen"; fi
say "import { loadScene, Batch, RlEnv } from 'achilles-sim': typed (a type error is caught) and runs"

# 5. The MuJoCo timing addon.
if [ -f "$pkg/prebuilds/linux-x64/achilles_mujoco.node" ]; then
  lib=$(node -p "require('$pkg/prebuilds/linux-x64/achilles_mujoco.json').library")
  mjdir=$(python3 -c 'import mujoco, os; print(os.path.dirname(mujoco.__file__))')
  mkdir -p "$work/mujoco-elsewhere"
  cp "$mjdir/$lib" "$work/mujoco-elsewhere/"
  used=$(ACHILLES_MUJOCO_DIR="$work/mujoco-elsewhere" node --input-type=module -e \
    "import { loadMujocoNative } from 'achilles-sim/dist/bench/mujoco-native.js'; console.log(loadMujocoNative().info().lib)")
  [ "$used" = "$work/mujoco-elsewhere/$lib" ] || fail "the prebuilt timing addon used $used, not the MuJoCo found at run time"
  say "prebuilt MuJoCo timing addon loads against the MuJoCo found at run time ($lib)"
else
  say "no prebuilt MuJoCo timing addon in the tarball (MuJoCo was absent when packing)"
fi
if ACHILLES_MUJOCO_DIR="$work/nowhere" npx --no-install achilles bench --scene "$pkg/scenes/double-pendulum.arow" --lanes 1 \
  --precision f64 --copies 1 --reps 1 --budget 0.01 --vs mujoco --out bench > "$work/bench.log" 2>&1; then
  fail "bench --vs mujoco succeeded without MuJoCo"
fi
grep -q 'find-mujoco.mjs --build' "$work/bench.log" || { cat "$work/bench.log"; fail "bench --vs mujoco without MuJoCo does not say how to build the addon"; }
say "bench --vs mujoco without MuJoCo: $(grep -m1 -o 'needs native MuJoCo[^,;]*\|timing addon is not built' "$work/bench.log" | head -1)"

# 6. The source fallback, as far as configuring (compiling is the same as in a clone and takes minutes):
#    in the installed layout, cmake-js is found beside the package, node-addon-api resolves and every
#    source the CMakeLists names was shipped.
if command -v cmake > /dev/null; then
  cmakejs=$(node -e "import('$pkg/scripts/cmake-js.mjs').then((m) => console.log(m.cmakeJsBin()))")
  case "$cmakejs" in "$project/node_modules/"*) ;; *) fail "cmake-js resolved to $cmakejs, not the project's node_modules" ;; esac
  (cd "$pkg" && node "$cmakejs" configure --directory native --out "$work/fallback-build" > "$work/configure.log" 2>&1) \
    || { cat "$work/configure.log"; fail "the source fallback does not configure in the installed package"; }
  say "the source fallback configures in the installed package (cmake-js from $project/node_modules)"
else
  say "no cmake here: the source fallback's configure step is not checked"
fi
say "ok"

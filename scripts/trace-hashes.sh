#!/usr/bin/env bash
# One hash per bundled scene × precision × solver, to show a refactor leaves every result bit for bit
# as it was: record the hashes before, change the code, record them again and diff the two.
#
#   scripts/trace-hashes.sh > before.txt        # scenes only
#   scripts/trace-hashes.sh --validate contact  # also a hash of each named validate stage's gate summary
#   diff before.txt after.txt                   # no output: bit-identical
#
# Each scene (scenes/*.arow and scenes/mesh-arm/mesh-arm.xml) runs for DURATION seconds (default 0.5)
# at f32 × 16 lanes and at f64 × 8 lanes, one robot per lane, the robots' coordinates spread apart
# (--spread) so the lanes differ, every robot recorded. The solver is set by a copy of the scene
# (scenes/ copied whole, so relative files resolve) with world.solver.method (.arow, its other solver
# settings kept) or <option solver=...> (MJCF) replaced; a combination the engine refuses (PGS with
# an elliptic cone or past its dofs) prints its refusal's first line instead of a hash. The hash is
# sha256 over the run's trace CSV files without their '#' header (it holds the date and the scene's
# path; run.json is left out: it holds timings).
# A validate stage's hash is over its --json gate summary with timing fields removed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
duration=${DURATION:-0.5}
stages=()
traces=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-traces) traces=0; shift ;;
    --validate)
      shift
      while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do stages+=("$1"); shift; done
      ;;
    *) echo "usage: scripts/trace-hashes.sh [--no-traces] [--validate STAGE...]   (env DURATION, default 0.5)" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r scenes "$work/scenes"

# The scene's copy with solver method $2 (cg | newton | pgs) in $3.
with_method() {
  local src=$1 method=$2 out=$3 mj=none
  case "$src" in
    *.arow)
      if grep -q '^world:.*solver: *{[^}]*method:' "$src"; then
        sed -E "/^world:/ s/(solver: *\\{[^}]*method: *)[a-z]+/\\1$method/" "$src" > "$out"
      elif grep -q '^world:.*solver: *{' "$src"; then
        sed -E "/^world:/ s/solver: *\\{/solver: { method: $method,/" "$src" > "$out"
      else
        sed -E "/^world:/ s/ *\\} *\$/, solver: { method: $method } }/" "$src" > "$out"
      fi
      ;;
    *.xml)
      case "$method" in cg) mj=CG ;; newton) mj=Newton ;; pgs) mj=PGS ;; esac
      sed -E "s/<option /<option solver=\"$mj\" /" "$src" > "$out"
      ;;
  esac
  grep -Eq "method: $method[ ,}]|solver=\"$mj\"" "$out" || { echo "trace-hashes: could not set the solver of $src" >&2; exit 1; }
}

scenes=(scenes/*.arow scenes/mesh-arm/mesh-arm.xml)
[ "$traces" = 1 ] || scenes=()
for scene in "${scenes[@]}"; do
  name=${scene#scenes/}
  dir=$(dirname "$work/$scene")
  base=$(basename "$scene")
  for method in cg newton pgs; do
    copy="$dir/.hash-$method-$base"
    with_method "$work/$scene" "$method" "$copy"
    for pl in f32:16 f64:8; do
      precision=${pl%:*} lanes=${pl#*:}
      robots=$(seq -s, 0 $((lanes - 1)))
      out="$work/out-$method-$precision"
      rm -rf "$out"
      if log=$(node bin/achilles.js run "$copy" --precision "$precision" --lanes "$lanes" --copies "$lanes" --robots "$robots" \
        --spread 0.01 --duration "$duration" --allow-controller --out "$out" 2>&1); then
        hash=$(cd "$out" && for f in $(find . -name '*.csv' | LC_ALL=C sort); do echo "$f"; grep -v '^#' "$f"; done | sha256sum | cut -c1-16)
      else
        hash="refused: $(printf '%s\n' "$log" | grep -v '^\s*$' | head -1 | sed "s#$work/##g")"
      fi
      echo "$name $precision x$lanes $method $hash"
    done
    rm -f "$copy"
  done
done

for stage in "${stages[@]}"; do
  if ! json=$(node bin/achilles.js validate --stage "$stage" --json --out "$work/validate-$stage" 2>"$work/validate.err"); then
    echo "validate $stage failed: $(grep -v '^\s*$' "$work/validate.err" | head -1)"
    continue
  fi
  hash=$(printf '%s' "$json" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const drop = (k) => /time|seconds|elapsed|duration|ms$|date|dir|path|out/i.test(k);
      const clean = (v) => Array.isArray(v) ? v.map(clean) : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).filter(([k]) => !drop(k)).map(([k, x]) => [k, clean(x)])) : v;
      try { process.stdout.write(JSON.stringify(clean(JSON.parse(s)))); } catch { process.stdout.write("not json: " + s); process.exitCode = 1; }
    });' | sha256sum | cut -c1-16)
  echo "validate $stage $hash"
done

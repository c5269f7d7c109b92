#!/usr/bin/env bash
# The README's pictures, made again from the engine (issue 55): a replay filmstrip of the bundled
# quadruped (achilles run --html, then achilles view --filmstrip: needs Chromium) and the bench chart of
# the same quadruped against MuJoCo with robots that differ (achilles bench --vs mujoco: needs the mujoco
# wheel). Writes docs/img/quadruped-filmstrip.png and docs/img/quadruped-bench.svg; the chart names the
# machine it was measured on. Usage: bash scripts/readme-figures.sh (after npm ci), about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
achilles() { node bin/achilles.js "$@"; }
achilles run scenes/quadruped.arow --duration 2 --html --out "$work/run" > /dev/null
achilles view "$work/run" --filmstrip 6 > /dev/null
cp "$work/run/replay-filmstrip.png" docs/img/quadruped-filmstrip.png
achilles bench --scene scenes/quadruped.arow --vs mujoco --precision f32,f64 --lanes 16 --copies 16,64,256 --threads 1 \
  --budget 0.2 --reps 3 --lockstep no --out "$work/bench" > "$work/bench.txt"
chart=$(ls "$work"/bench/speedup-*.svg | head -1)
cp "$chart" docs/img/quadruped-bench.svg
echo "readme-figures: wrote docs/img/quadruped-filmstrip.png and docs/img/quadruped-bench.svg (from $(basename "$chart"))"

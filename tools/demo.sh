#!/usr/bin/env bash
# The main job: install what is missing, build, and run the default scene headless.
# Writes out/demo/{metrics.csv,summary.json,frame_NNNN.png,plots/*.png}: pictures of the fluid
# surface with the particles (coloured by speed) showing through it, annotated with the scene,
# solver, time and colour legend (--overlay), and plots of the metrics.
# Extra arguments go to floe run, e.g. tools/demo.sh --frames 8 --validate --render fluid
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
scene=assets/scenes/dam_break_2d.json
out=out/demo
# Runs on the best Vulkan device there is (lavapipe on a machine without a GPU).
if [[ -z "${XDG_RUNTIME_DIR:-}" || ! -d "${XDG_RUNTIME_DIR}" ]]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
fi
defaults=(--plots --overlay)
[[ " $* " == *" --render "* ]] || defaults+=(--render both)
build/floe run "$scene" --out "$out" "${defaults[@]}" "$@"
echo
echo "demo: pictures  $(pwd)/$out/frame_*.png"
echo "demo: plots     $(pwd)/$out/plots/*.png"
echo "demo: metrics   $(pwd)/$out/metrics.csv"
echo "demo: summary   $(pwd)/$out/summary.json"

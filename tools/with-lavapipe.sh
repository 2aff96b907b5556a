#!/usr/bin/env bash
# Runs a command on Mesa's lavapipe (the CPU Vulkan driver) even where a GPU exists, with a
# private XDG_RUNTIME_DIR (tools print "XDG_RUNTIME_DIR is invalid" without one).
#   tools/with-lavapipe.sh build/floe info
set -euo pipefail
icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -1 || true)
[[ -n "$icd" ]] || { echo "with-lavapipe: lavapipe is not installed (Debian: mesa-vulkan-drivers)" >&2; exit 1; }
export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"
if [[ -z "${XDG_RUNTIME_DIR:-}" || ! -d "${XDG_RUNTIME_DIR}" ]]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
fi
exec "$@"

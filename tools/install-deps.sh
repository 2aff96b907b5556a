#!/usr/bin/env bash
# Installs the Debian 12 packages Floe needs that are missing. Idempotent and quiet: when every
# package is present it only asks dpkg and returns in well under a second.
set -euo pipefail

packages=(
  # toolchain
  cmake ninja-build g++ pkg-config clang-format
  # Vulkan: loader, headers, volk, lavapipe, validation layers, shader compiler, vulkaninfo
  libvulkan-dev libvulkan-volk-dev mesa-vulkan-drivers vulkan-validationlayers glslc vulkan-tools
  # libraries
  libglm-dev libglfw3-dev libimgui-dev libstb-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev zlib1g-dev
  # RenderDoc in-application API, its command line and its Python module (capture tests)
  librenderdoc-dev librenderdoc renderdoccmd python3-renderdoc
  # the pictures' overlay (floe run --overlay): DejaVu Sans
  fonts-dejavu-core
  # plots of metrics and benchmarks (tools/plot.py)
  python3-matplotlib
  # windows without a display (tests of the interactive front end)
  xvfb xauth
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-deps: apt-get failed (log above)" >&2
  exit 1
fi
rm -f "$log"

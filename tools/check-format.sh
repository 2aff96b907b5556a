#!/usr/bin/env bash
# Checks (or with --fix, applies) clang-format on Floe's C++ sources. Exit 1 lists the files
# that differ. Part of the test suite (ctest -R clang_format).
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --git-dir >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' 'shaders/shared/*.h')
else
  mapfile -t files < <(find src tests shaders/shared \( -name '*.cpp' -o -name '*.h' \) -type f)
fi
[[ ${#files[@]} -gt 0 ]] || { echo "check-format: no sources found" >&2; exit 1; }
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [[ ${#bad[@]} -gt 0 ]]; then
  echo "clang-format differs in: ${bad[*]}" >&2
  echo "run tools/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"

#!/usr/bin/env bash
# Fails when a C++ file of the tree (tracked, or new and not ignored) is not
# formatted as .clang-format says; --fix formats them all in place.
# Usage: scripts/check_format.sh [--fix]   (needs clang-format-22)
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=${CLANG_FORMAT:-clang-format-22}
fix=0
[[ ${1:-} == --fix ]] && fix=1
if ! command -v "$fmt" >/dev/null; then
  echo "check_format: $fmt not found (scripts/setup.sh installs it)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files --cached --others --exclude-standard \
  -- '*.cpp' '*.h' | sort -u | while read -r f; do [[ -f $f ]] && echo "$f"; done)
[[ ${#files[@]} -gt 0 ]] || exit 0
if ((fix)); then
  "$fmt" -i "${files[@]}"
else
  "$fmt" --dry-run -Werror "${files[@]}"
fi

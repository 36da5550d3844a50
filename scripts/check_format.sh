#!/usr/bin/env bash
# Fails when a C++ file changed since the formatting base is not formatted
# as .clang-format says. The base is the commit that introduced the check:
# files untouched since keep their layout until they are next edited.
# Usage: scripts/check_format.sh [--fix] [BASE]   (needs clang-format-22)
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=${CLANG_FORMAT:-clang-format-22}
fix=0
[[ ${1:-} == --fix ]] && { fix=1; shift; }
base=${1:-d2f9c528ee46c1b4094d17c017d50365a33ddc7a}
if ! command -v "$fmt" >/dev/null; then
  echo "check_format: $fmt not found (scripts/setup.sh installs it)" >&2
  exit 2
fi
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  # A shallow clone without the base: check what the last commit changed.
  base=HEAD~1
  git cat-file -e "$base^{commit}" 2>/dev/null || base=$(git hash-object -t tree /dev/null)
fi
mapfile -t files < <(git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.h')
[[ ${#files[@]} -gt 0 ]] || exit 0
if ((fix)); then
  "$fmt" -i "${files[@]}"
else
  "$fmt" --dry-run -Werror "${files[@]}"
fi

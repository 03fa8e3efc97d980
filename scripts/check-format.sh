#!/usr/bin/env bash
# Checks that C++ sources follow .clang-format with the pinned formatter, Debian's
# clang-format-14 (other versions format some constructs differently).
#   scripts/check-format.sh          every tracked and new .cpp/.hpp file
#   scripts/check-format.sh --fix    rewrite them in place
set -euo pipefail
cd "$(dirname "$0")/.."
FORMAT=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$FORMAT" >/dev/null; then
  echo "check-format: $FORMAT not found (scripts/deps.sh installs clang-format-14)" >&2
  exit 1
fi
if git rev-parse --git-dir >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.hpp' |
                       while read -r f; do [ -f "$f" ] && echo "$f"; done)
else
  mapfile -t files < <(find include src tests bench -name '*.[ch]pp')
fi
if [ "${1:-}" = --fix ]; then
  "$FORMAT" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
bad=()
for file in "${files[@]}"; do
  "$FORMAT" --dry-run --Werror "$file" >/dev/null 2>&1 || bad+=("$file")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} file(s) not formatted with $FORMAT (fix: scripts/check-format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"

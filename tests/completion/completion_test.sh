#!/usr/bin/env bash
# `allocsim completion bash|zsh`: the bash script is sourced and asked as bash would ask it
# (COMP_WORDS / COMP_CWORD); the zsh script is checked for syntax when zsh is installed.
#   completion_test.sh ALLOCSIM
set -euo pipefail
ALLOCSIM=$1
script=$(mktemp)
trap 'rm -f "$script"' EXIT
"$ALLOCSIM" completion bash >"$script"
bash -n "$script"
fail() { echo "FAIL: $*" >&2; exit 1; }

# complete WORD... : the completions bash would offer for the last word.
complete_words() {
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _allocsim
    printf "%s\n" "${COMPREPLY[@]}"' complete "$script" "$@"
}
expect() {  # EXPECTED_WORD WORD...
  local want=$1 got; shift
  # Whole outputs are captured before they are searched: a reader that stops early (grep -q,
  # head) can kill the writer with SIGPIPE, which pipefail reports as a failure.
  got=$(complete_words "$@")
  grep -qx -- "$want" <<<"$got" || fail "'$*' does not complete to '$want' (got: $(tr '\n' ' ' <<<"$got"))"
}
expect run allocsim ru
expect completion allocsim comp
expect --machine allocsim run --mach
expect --alloc allocsim run --al
expect submesh3d allocsim run --alloc sub
expect easy allocsim run --sched ea
expect mesh: allocsim run --machine me
expect size_scale allocsim run --transform size
expect --resume allocsim sweep --res
[ -z "$(complete_words allocsim run --alloc zzz)" ] || fail "unknown value completed"

if command -v zsh >/dev/null; then
  "$ALLOCSIM" completion zsh >"$script"
  zsh -n "$script"
  echo "zsh script: syntax ok"
else
  zsh_script=$("$ALLOCSIM" completion zsh)
  [ "${zsh_script%%$'\n'*}" = "#compdef allocsim" ] || fail "zsh header"
  echo "zsh not installed: zsh script checked for its header only"
fi
echo "completion: ok"

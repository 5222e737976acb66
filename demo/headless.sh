#!/bin/sh
# A tour of the supervisor core through `corral run`, needing only the corral binary and
# /bin/sh. The child programs are built into corral itself (CORRAL_CHILD=1 selects them).
# Usage: demo/headless.sh [path/to/corral]
set -u
BIN=${1:-bin/corral}
STATE=$(mktemp -d "${TMPDIR:-/tmp}/corral-demo.XXXXXX")
export CORRAL_STATE_DIR="$STATE"
trap 'rm -rf "$STATE"' EXIT
child() { echo --name "$1" --env CORRAL_CHILD=1 -- "$BIN" "$@"; }

step() {
  printf '\n\033[1m== %s\033[0m\n$ corral run %s\n' "$1" "$2"
}
show() {
  desc=$1; shift
  step "$desc" "$*"
  "$BIN" run "$@"
  echo "(exit code $?)"
}

show "A PTY run that exits on its own with code 3" --pty $(child exit 3)
show "Overall timeout: ended after 1s, exit code 124" --timeout 1s $(child sleep)
show "No-output watchdog: silent for 1s" --no-output-timeout 1s $(child silent)
show "A shell wrapper with a child and a grandchild, timed out: all three killed" \
  --timeout 1s $(child tree 2)
show "A tree that ignores SIGTERM (and SIGHUP): SIGKILL after a 1s grace" \
  --pty --grace 1s --timeout 500ms $(child tree 1 ignore-term)
show "A program that does not exist: spawn-error, exit code 127" -- corral-no-such-program
show "stdout and stderr kept apart, then the --json report" --json $(child streams)
printf '\nTranscripts were written to %s/logs (removed on exit).\n' "$STATE"

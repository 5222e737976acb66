#!/usr/bin/env bash
# Re-records the agent-state corpus in this directory: installs the pinned CLIs with
# npm where they are missing (into $CORRAL_AGENTS_PREFIX, default ~/agents: not under
# /tmp, where codex refuses to run its helpers), then drives each one offline against
# the scripted model server (runs/agentstate/agenttest/record).
#
#   runs/agentstate/testdata/corpus/record.sh            # every recording
#   runs/agentstate/testdata/corpus/record.sh codex      # some of them
#
# The versions here are the ones agenttest.Agents pins; change both together.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
export CORRAL_AGENTS_PREFIX="${CORRAL_AGENTS_PREFIX:-$HOME/agents}"

need() { # need BINARY PACKAGE@VERSION
	if ! command -v "$1" >/dev/null && [ ! -x "$CORRAL_AGENTS_PREFIX/bin/$1" ]; then
		echo "record.sh: installing $2 into $CORRAL_AGENTS_PREFIX" >&2
		npm install -g --prefix "$CORRAL_AGENTS_PREFIX" "$2"
	fi
}
need claude @anthropic-ai/claude-code@2.1.197
need codex @openai/codex@0.169.0
need gemini @google/gemini-cli@0.61.0
need opencode opencode-ai@1.18.33

go run ./runs/agentstate/agenttest/record -out runs/agentstate/testdata/corpus "$@"

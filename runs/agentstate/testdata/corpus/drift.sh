#!/usr/bin/env bash
# The drift check (make agents-latest): installs the newest version of each agent CLI
# npm serves into a prefix of its own ($CORRAL_AGENTS_LATEST, default ~/agents-latest;
# not under /tmp, where codex refuses to run its helpers), then, offline against the
# scripted model server, runs the real-agent tests and the recorder against them,
# replays the fresh recordings through the rules, and writes what changed per CLI to
# DRIFT.md beside this script: test verdicts, rules that no longer read a phase right,
# new screens and signals, timing. Needs the npm registry, so it is not part of CI.
#
#   runs/agentstate/testdata/corpus/drift.sh                 # claude codex gemini opencode
#   runs/agentstate/testdata/corpus/drift.sh claude          # some of them
#
# DRIFT_REPORT_ONLY=1 writes the report again from the last run's recordings and logs.
# A fresh recording that should join the corpus (the rules now read it) is in $OUT:
# copy NAME-VERSION.* here and add the name to agenttest.Recordings.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
corpus=runs/agentstate/testdata/corpus
prefix="${CORRAL_AGENTS_LATEST:-$HOME/agents-latest}"
out="${DRIFT_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/corral-drift}"
report="${DRIFT_REPORT:-$corpus/DRIFT.md}"
agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(claude codex gemini opencode)
declare -A pkg=([claude]=@anthropic-ai/claude-code [codex]=@openai/codex [gemini]=@google/gemini-cli [opencode]=opencode-ai)
declare -A extra=([claude]=claude-interrupt [codex]=codex-unfocused)
mkdir -p "$prefix" "$out"

installed() { # installed PACKAGE: the version in the prefix, or nothing
	node -p "require('$prefix/lib/node_modules/$1/package.json').version" 2>/dev/null
}
pinned() { # pinned NAME: the version the tests are pinned to (agenttest.Agents)
	sed -n "s/.*Name: \"$1\".*Version: \"\([0-9.]*\)\".*/\1/p" runs/agentstate/agenttest/agent.go
}

declare -A version
for a in "${agents[@]}"; do
	p=${pkg[$a]}
	if [ -n "${DRIFT_REPORT_ONLY:-}" ]; then
		version[$a]=$(installed "$p")
		continue
	fi
	latest=$(npm view "$p" version) || { echo "drift.sh: npm view $p failed" >&2; exit 1; }
	if [ "$(installed "$p")" != "$latest" ]; then
		echo "drift.sh: installing $p@$latest into $prefix" >&2
		npm install -g --prefix "$prefix" "$p@$latest" >&2 || exit 1
	fi
	# npm 11 runs no install scripts unless allowed: Claude Code's (and opencode's, for
	# some installs) copies its native binary into place.
	if ! "$prefix/bin/$a" --version >/dev/null 2>&1; then
		(cd "$prefix/lib/node_modules/$p" && npm run postinstall) >&2 || exit 1
	fi
	version[$a]=$latest
done

export CORRAL_AGENTS_LATEST="$prefix"
if [ -z "${DRIFT_REPORT_ONLY:-}" ]; then # set: write the report again from $out
	rm -f "$out"/*.cast "$out"/*.phases.json
	echo "drift.sh: real-agent tests against $prefix" >&2
	go test -count=1 -timeout 60m -run 'TestReal' -v . >"$out/tests.log" 2>&1
	for a in "${agents[@]}"; do
		echo "drift.sh: recording $a ${version[$a]}" >&2
		go run ./runs/agentstate/agenttest/record -q -out "$out" -suffix "-${version[$a]}" $a ${extra[$a]:-} \
			>"$out/record-$a.log" 2>&1
	done
fi
echo "drift.sh: replaying the recordings through the rules" >&2
CORRAL_CORPUS_DIR="$out" go test -count=1 -run 'TestCorpus' -v ./runs/agentstate/ >"$out/replay.log" 2>&1

{
	echo "# Agent CLI drift"
	echo
	echo "Written by \`make agents-latest\` (runs/agentstate/testdata/corpus/drift.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'),"
	echo "$(nproc) cores, offline against the scripted model server; the newest CLIs in \`$prefix\`."
	echo "Verdicts of \`CORRAL_AGENTS_LATEST=$prefix go test -run TestReal .\` and of the rules over the"
	echo "fresh recordings (\`CORRAL_CORPUS_DIR=$out go test -run TestCorpus ./runs/agentstate/\`)."
	echo
	echo "Every real-agent test: $(grep -E '^--- (PASS|FAIL|SKIP)' "$out/tests.log" | sed 's/^--- \([A-Z]*\): \([A-Za-z]*\) (\(.*\))/\2 \1 (\3)/' | paste -sd, - | sed 's/,/, /g')."
	for a in "${agents[@]}"; do
		v=${version[$a]}
		echo
		echo "## $a: pinned $(pinned $a), newest $v"
		echo
		echo "Real-agent tests:"
		echo
		grep -E "^ *--- (PASS|FAIL|SKIP): Test[A-Za-z]+/$a " "$out/tests.log" | sed 's/^ *--- /- /'
		grep -E "^ *--- (PASS|FAIL|SKIP): Test[A-Za-z]+/$a " "$out/tests.log" >/dev/null || echo "- none ran (see tests.log)"
		echo
		for r in $a ${extra[$a]:-}; do
			n="$r-$v"
			if [ ! -f "$out/$n.phases.json" ]; then
				echo "Recording $n failed:"
				echo
				tail -5 "$out/record-$a.log" | sed 's/^/    /'
				echo
				continue
			fi
			if grep -qE "^ *--- FAIL: TestCorpus[A-Za-z]*/$n " "$out/replay.log"; then
				echo "Rules that no longer read $n right:"
				echo
				grep -E "^ *--- FAIL: TestCorpus[A-Za-z]*/$n |replay_test.go" "$out/replay.log" |
					grep -A12 -E -- "--- FAIL: TestCorpus[A-Za-z]*/$n " | grep replay_test.go | head -12 | sed 's/^ */    /'
			else
				echo "The rules read every phase of $n right."
			fi
			grep -E "TestCorpusVersionsRecorded.*$n|^ *replay_test.go:[0-9]+: $n: recorded with" "$out/replay.log" |
				sed 's/^ */    /'
			echo
			go run ./runs/agentstate/agenttest/record -compare "$corpus" -out "$out" "$n" 2>&1
		done
	done
} >"$report"
echo "drift.sh: wrote $report (recordings, logs in $out)" >&2

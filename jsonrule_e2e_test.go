package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Everything the real binary writes as JSON keeps the rule (jsonrule_test.go): the
// --json output of run, parity, ls, reconcile and every control verb, and the state
// dir's records, metrics and events.jsonl. Recordings (.cast) are asciicast v2, a
// format of their own, and are not Corral's JSON.
func TestJSONRuleOfEveryOutput(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	check := func(what string, r result, lines bool) {
		t.Helper()
		if strings.TrimSpace(r.stdout) == "" {
			t.Errorf("%s wrote no JSON (exit %d): %s", what, r.code, r.stderr)
		}
		checkDocs(t, what, []byte(r.stdout), lines)
	}
	in := func(args ...string) result { t.Helper(); return serverCorral(t, state, args...) }

	check("run --json --pty", in(runArgs([]string{"--json", "--pty", "--timeout", "1m"}, child("streams"))...), false)
	check("run --json", in(runArgs([]string{"--json", "--grace", "2s"}, child("exit", "4"))...), false)
	check("parity --json", in("parity", "--json", "--shell", "--", "echo same"), false)
	startKilled(t, state)
	check("reconcile --json", in("reconcile", "--json"), true)

	sp := in("spawn", "--json", "--pty", "--name", "echoer", "--timeout", "5m", "--shell", "--",
		`while read l; do echo "got $l"; done`)
	check("spawn --json", sp, false)
	id := strings.TrimSpace(in("spawn", "--pty", "--name", "other", "--shell", "--", "sleep 300").stdout)
	if id == "" {
		t.Fatal("the second spawn printed no id")
	}
	check("send-keys --json", in("send-keys", "--json", "echoer", "one", "Enter"), false)
	check("write --json", in("write", "--json", "echoer", "two\r"), false)
	check("paste --json", in("paste", "--json", "echoer", "three"), false)
	check("submit --json", in("submit", "--json", "echoer", "four"), false)
	check("poll --json", in("poll", "--json", "--wait", "1s", "echoer"), false)
	check("log --json", in("log", "--json", "echoer"), false)
	check("screen --json", in("screen", "--json", "echoer"), false)
	check("wait --json (timed out)", in("wait", "--json", "--timeout", "10ms", "echoer"), false)
	check("ls --json", in("ls", "--json"), false)
	check("interrupt --json", in("interrupt", "--json", id), false) // the other run: echoer is killed next
	check("kill --json", in("kill", "--json", "echoer"), false)
	check("wait --json", in("wait", "--json", "echoer"), false)
	check("remove --json", in("remove", "--json", "echoer"), false)
	check("shutdown --json", in("shutdown", "--json"), false)

	files, _ := filepath.Glob(filepath.Join(state, "runs", "*.json"))
	metrics, _ := filepath.Glob(filepath.Join(state, "metrics", "*.json"))
	if len(files) < 4 || len(metrics) < 3 {
		t.Fatalf("records %v, metrics %v", files, metrics)
	}
	for _, f := range append(files, metrics...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkDocs(t, f, b, false)
	}
	checkDocs(t, "events.jsonl", []byte(readEvents(t, state)), true)
}

// checkDocs checks one JSON document, or one per line.
func checkDocs(t *testing.T, what string, b []byte, lines bool) {
	t.Helper()
	docs := [][]byte{b}
	if lines {
		docs = nil
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			docs = append(docs, append([]byte(nil), sc.Bytes()...))
		}
	}
	for _, d := range docs {
		for _, e := range jsonRuleErrors(d) {
			t.Errorf("%s: %s", what, e)
		}
	}
}

package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// corral spawn --depends-on and corral run --depends-on name runs of the server, by
// name or id: one that names none is refused with one error and nothing started, as
// is a wait that would close a cycle; a dependent waits, is listed waiting, and
// starts once its condition holds (corral run's too, in its terminal); one that can
// never hold ends the dependent with dependency-failed, or corral run with it said.
func TestSpawnAndRunDependsOn(t *testing.T) {
	state := t.TempDir()
	spawn := func(args ...string) result { return serverCorral(t, state, append([]string{"spawn"}, args...)...) }
	r := spawn("--name", "api", "--depends-on", "db=started", "--shell", "sleep 30")
	stopServer(t, state)
	if r.code != 1 || !strings.Contains(r.stderr, "--depends-on db: no run in the server has that name or id") ||
		strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("a dependency on no run: %+v", r)
	}
	if runs := registry(t, state); len(runs) != 0 {
		t.Fatalf("a refused spawn left %+v", runs)
	}
	gate := filepath.Join(t.TempDir(), "gate")
	mig := spawn("--name", "migrate", "--shell", "while [ ! -e "+gate+" ]; do sleep 0.05; done; exit 0")
	if mig.code != 0 {
		t.Fatalf("spawn migrate: %+v", mig)
	}
	migID := strings.TrimSpace(mig.stdout)
	if r := spawn("--name", "api", "--depends-on", "migrate=succeeded", "--shell", "sleep 30"); r.code != 0 {
		t.Fatalf("spawn api: %+v", r)
	}
	if r := spawn("--name", "after", "--depends-on", migID[:7]+"=ended", "--shell", "sleep 30"); r.code != 0 {
		t.Fatalf("spawn after, on migrate by its id: %+v", r)
	}
	for name, on := range map[string]string{"api": "migrate", "after": migID} { // by id: that run, named by its id
		run := runInfo(t, state, name)["run"].(map[string]any)
		if w, _ := run["waiting_for"].([]any); run["state"] != "starting" || len(w) != 1 || w[0].(map[string]any)["name"] != on {
			t.Fatalf("%s: %v waiting for %v, want starting, waiting for %s", name, run["state"], run["waiting_for"], on)
		}
	}
	// api waits for migrate: a new migrate waiting for api would never start.
	if r := spawn("--name", "migrate", "--depends-on", "api", "--shell", "true"); r.code != 1 ||
		!strings.Contains(r.stderr, "a cycle: migrate waits for api, which waits for migrate") {
		t.Fatalf("a cycle: %+v", r)
	}
	if r := spawn("--name", "x", "--depends-on", "migrate=ready", "--shell", "true"); r.code != 1 ||
		!strings.Contains(r.stderr, "has no readiness probe") {
		t.Fatalf("ready on a run with no probe: %+v", r)
	}

	// corral run waits in its terminal, says for what, then runs.
	fg := corral(t, "run", "--depends-on", "migrate=succeeded", "--shell", "test -e "+gate+" && echo ran after migrate")
	fg.Env = append(fg.Env, "CORRAL_STATE_DIR="+state)
	var out bytes.Buffer
	fg.Stdout = &out
	errp, err := fg.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := fg.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(errp)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var said []string
	for waiting := false; !waiting; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("corral run ended before it waited: %q", said)
			}
			said, waiting = append(said, l), strings.Contains(l, "waiting for migrate (succeeded)")
		case <-time.After(20 * time.Second):
			t.Fatalf("corral run did not say it waits: %q", said)
		}
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		said = append(said, l)
	}
	if err := fg.Wait(); err != nil || strings.TrimSpace(out.String()) != "ran after migrate" {
		t.Fatalf("corral run: %v, %q %q", err, out.String(), said)
	}
	for _, name := range []string{"api", "after"} {
		if w := serverCorral(t, state, "wait", name, "--until", "started", "--timeout", "20s"); w.code != 0 {
			t.Fatalf("%s did not start: %+v", name, w)
		}
	}
	m := runInfo(t, state, "migrate")["run"].(map[string]any)
	a := runInfo(t, state, "api")["run"].(map[string]any)
	ended, _ := time.Parse(time.RFC3339Nano, m["ended_at"].(string))
	started, _ := time.Parse(time.RFC3339Nano, a["started_at"].(string))
	if started.Before(ended) {
		t.Fatalf("api started %v, before migrate ended %v", started, ended)
	}

	// A dependency that can never hold.
	if r := spawn("--name", "bad", "--shell", "exit 3"); r.code != 0 {
		t.Fatalf("spawn bad: %+v", r)
	}
	serverCorral(t, state, "wait", "bad", "--timeout", "20s")
	r = serverCorral(t, state, "run", "--depends-on", "bad=succeeded", "--shell", "echo must not run")
	if r.code != 1 || strings.Contains(r.stdout, "must not run") || !strings.Contains(r.stderr, "dependency-failed: bad exited 3") {
		t.Fatalf("corral run on a failed dependency: %+v", r)
	}
	if r := spawn("--name", "dep", "--depends-on", "bad=succeeded", "--shell", "echo must not run"); r.code != 0 {
		t.Fatalf("spawn dep: %+v", r)
	}
	w := serverCorral(t, state, "wait", "dep", "--timeout", "20s")
	if d := runInfo(t, state, "dep")["run"].(map[string]any); d["reason"] != "dependency-failed" || !strings.Contains(w.stdout+w.stderr, "bad exited 3") {
		t.Fatalf("dep ended %v: %+v", d["reason"], w)
	}
	if r := serverCorral(t, state, "run", "--on-dependency-lost", "restart", "--shell", "true"); r.code != 2 {
		t.Fatalf("--on-dependency-lost without --depends-on: %+v", r)
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo"
	"corral/demo/testkit"
	"corral/reaper"
)

// servicesConfig is a database, a migration, an API that waits for both, and a
// watcher that waits for the API, each one of corral's own child programs; the
// migration exits with migrateCode.
func servicesConfig(t *testing.T, migrateCode int) string {
	run := func(name, mode, deps string, args ...string) string {
		argv := append([]string{corralBin, mode}, args...)
		q, _ := json.Marshal(argv)
		s := fmt.Sprintf("[[run]]\nname = %q\nargv = %s\nenv = { %s = \"1\" }\n", name, q, demo.ChildEnv)
		if deps != "" {
			s += "depends_on = " + deps + "\n"
		}
		return s + "\n"
	}
	doc := run("watch", "sleep", `{ api = "started" }`) + // listed first: up starts it last
		run("api", "sleep", `{ db = "started", migrate = "succeeded" }`) +
		run("db", "sleep", "") +
		run("migrate", "exit", `{ db = "started" }`, fmt.Sprint(migrateCode))
	path := filepath.Join(t.TempDir(), "corral.toml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runInfo is corral info NAME as JSON.
func runInfo(t *testing.T, state, name string) map[string]any {
	t.Helper()
	r := serverCorral(t, state, "info", name)
	var m map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &m) != nil {
		t.Fatalf("info %s: %+v", name, r)
	}
	return m
}

// stopServer ends the state dir's server when the test ends, and now with shutdown.
func stopServer(t *testing.T, state string) int {
	pid := serverPID(t, state)
	endLater(t, testkit.Pin(t, pid), syscall.SIGTERM, "server")
	return pid
}

// A config's services come up in order with corral up --wait, graph shows what each
// waits for and its state, wait --until started returns, and corral down ends them
// all, dependents first, with nothing left behind.
func TestUpWaitGraphDown(t *testing.T) {
	state, cfg := t.TempDir(), servicesConfig(t, 0)
	r := serverCorral(t, state, "up", "--config", cfg, "--wait", "--timeout", "60s")
	srv := stopServer(t, state)
	if r.code != 0 {
		t.Fatalf("up --wait: %+v", r)
	}
	order := []string{"db", "migrate", "api", "watch"}
	last := -1
	for _, name := range order { // the lines of up, in start order
		k := strings.Index("\n"+r.stdout, "\n"+name+"\t")
		if k < last {
			t.Fatalf("up printed %s out of order:\n%s", name, r.stdout)
		}
		last = k
	}
	if !strings.Contains(r.stdout, "\tsucceeded\n") {
		t.Fatalf("up --wait did not wait for migrate to succeed:\n%s", r.stdout)
	}
	mig, api := runInfo(t, state, "migrate")["run"].(map[string]any), runInfo(t, state, "api")["run"].(map[string]any)
	ended, _ := time.Parse(time.RFC3339Nano, mig["ended_at"].(string))
	started, _ := time.Parse(time.RFC3339Nano, api["started_at"].(string))
	if api["state"] != "running" || started.Before(ended) {
		t.Fatalf("api %s, started %v, before migrate ended %v", api["state"], started, ended)
	}
	g := serverCorral(t, state, "graph", "--config", cfg)
	if g.code != 0 || !strings.Contains(g.stdout, "← db (started), migrate (succeeded)") || !strings.Contains(g.stdout, "running (") {
		t.Fatalf("graph: %+v", g)
	}
	if w := serverCorral(t, state, "wait", "watch", "--until", "started", "--timeout", "10s"); w.code != 0 {
		t.Fatalf("wait --until started: %+v", w)
	}
	if w := serverCorral(t, state, "wait", "watch", "--until", "succeeded", "--timeout", "1s"); w.code != 124 {
		t.Fatalf("wait --until succeeded on a live run: %+v, want 124", w)
	}
	d := serverCorral(t, state, "down", "--config", cfg)
	if d.code != 0 || strings.Index(d.stdout, "watch ended") > strings.Index(d.stdout, "db ended") {
		t.Fatalf("down (dependents first): %+v", d)
	}
	for _, reg := range registry(t, state) {
		if reg.Name != "migrate" && reg.Reason != "manual-cancel" {
			t.Errorf("%s ended %s after down", reg.Name, reg.Reason)
		}
	}
	servicesGone(t, state)
	if s := serverCorral(t, state, "shutdown"); s.code != 0 {
		t.Fatalf("shutdown: %+v", s)
	}
	waitGone(t, srv, "server after shutdown")
}

// A migration that fails ends what waits for it with dependency-failed and why, and
// corral up --wait says so and fails; nothing of the never-started runs exists.
func TestUpDependencyFailed(t *testing.T) {
	state, cfg := t.TempDir(), servicesConfig(t, 3)
	r := serverCorral(t, state, "up", "--config", cfg, "--wait", "--timeout", "60s")
	stopServer(t, state)
	if r.code != 1 || !strings.Contains(r.stderr, `migrate can never meet "succeeded"`) {
		t.Fatalf("up --wait with a failing migration: %+v", r)
	}
	api := runInfo(t, state, "api")["run"].(map[string]any)
	if api["reason"] != "dependency-failed" || api["dependency_error"] != "migrate exited 3" || api["pid"] != nil {
		t.Fatalf("api: reason %v, %v, pid %v", api["reason"], api["dependency_error"], api["pid"])
	}
	w := serverCorral(t, state, "wait", "watch")
	if w.code == 0 || !strings.Contains(w.stderr, "watch ended: dependency-failed: api ") {
		t.Fatalf("wait on the watcher: %+v", w)
	}
	if d := serverCorral(t, state, "down", "--config", cfg); d.code != 0 {
		t.Fatalf("down: %+v", d)
	}
	servicesGone(t, state)
}

// A cycle and an unknown dependency are refused before anything starts, with the
// file and line; no server is started for them.
func TestUpRefusesBadDependencies(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "corral.toml")
	doc := "[[run]]\nname = \"a\"\ncmd = \"true\"\ndepends_on = { b = \"started\" }\n\n" +
		"[[run]]\nname = \"b\"\ncmd = \"true\"\ndepends_on = { a = \"ended\", c = \"started\" }\n"
	os.WriteFile(cfg, []byte(doc), 0o644)
	state := t.TempDir()
	r := serverCorral(t, state, "up", "--config", cfg)
	if r.code != 2 || !strings.Contains(r.stderr, cfg+`:9: run "b": key "depends_on": no run is named "c"`) {
		t.Fatalf("unknown: %+v", r)
	}
	os.WriteFile(cfg, []byte(strings.Replace(doc, `, c = "started"`, "", 1)), 0o644)
	for _, args := range [][]string{{"up", "--config", cfg}, {"check", cfg}} {
		r := serverCorral(t, state, args...)
		if r.code != 2 || !strings.Contains(r.stderr, cfg+`:9: run "b": key "depends_on": a cycle: a → b → a`) {
			t.Fatalf("%s with a cycle: %+v", args[0], r)
		}
	}
	if _, err := os.Stat(filepath.Join(state, "server.lock")); err == nil {
		t.Fatal("a server was started for a config that was refused")
	}
}

// servicesGone checks every run of the state dir ended, and those that started left
// nothing (a run that never started has no pid to look at).
func servicesGone(t *testing.T, state string) {
	t.Helper()
	for _, r := range registry(t, state) {
		if r.State != "exited" {
			t.Errorf("run %s (%s) is %s", r.Name, r.RunID, r.State)
		}
		if r.PID == 0 {
			continue
		}
		if m, _ := reaper.Session(r.PID); len(m) > 0 {
			t.Errorf("run %s left %+v", r.Name, m)
		}
	}
}

// A run waiting for its dependencies is listed by corral ls (from the server: it has
// no record yet) and poll --json as waiting, wait --until started times out on it,
// and down ends it without it ever starting.
func TestWaitingRunListedAndEnded(t *testing.T) {
	argv, _ := json.Marshal([]string{corralBin, "sleep"})
	doc := fmt.Sprintf("[[run]]\nname = \"db\"\nargv = %s\nenv = { %s = \"1\" }\n\n"+
		"[[run]]\nname = \"report\"\ncmd = \"true\"\ndepends_on = { db = \"ended\" }\n", argv, demo.ChildEnv)
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	os.WriteFile(cfg, []byte(doc), 0o644)
	state := t.TempDir()
	r := serverCorral(t, state, "up", "--config", cfg)
	stopServer(t, state) // first: a failed check below leaves no server behind
	if r.code != 0 || !strings.Contains(r.stdout, "report\t") || !strings.Contains(r.stdout, "waiting for db (ended)") {
		t.Fatalf("up: %+v", r)
	}
	if ls := serverCorral(t, state, "ls"); !strings.Contains(ls.stdout, "waiting for db") {
		t.Fatalf("ls does not list the waiting run:\n%s", ls.stdout)
	}
	var doc2 struct {
		Runs []struct {
			Name       string
			WaitingFor []struct{ Name, Condition string } `json:"waiting_for"`
		}
	}
	ls := serverCorral(t, state, "ls", "--json")
	if err := json.Unmarshal([]byte(ls.stdout), &doc2); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range doc2.Runs {
		found = found || r.Name == "report" && len(r.WaitingFor) == 1 && r.WaitingFor[0].Condition == "ended"
	}
	if !found {
		t.Fatalf("ls --json without report's waiting_for:\n%s", ls.stdout)
	}
	if p := serverCorral(t, state, "poll", "report", "--json"); !strings.Contains(p.stdout, `"waiting_for"`) {
		t.Fatalf("poll --json: %+v", p)
	}
	if w := serverCorral(t, state, "wait", "report", "--until", "started", "--timeout", "500ms"); w.code != 124 {
		t.Fatalf("wait --until started on a waiting run: %+v, want 124", w)
	}
	if d := serverCorral(t, state, "down", "--config", cfg); d.code != 0 || !strings.Contains(d.stdout, "report ended: manual-cancel after 0s") {
		t.Fatalf("down: %+v", d)
	}
	servicesGone(t, state)
}

// corral up --wait that runs out of time says, in words, which condition did not hold
// and where that run stands now.
func TestUpWaitTimeoutSaysWhatHoldsItUp(t *testing.T) {
	argv, _ := json.Marshal([]string{corralBin, "sleep"})
	doc := fmt.Sprintf(`[[run]]
name = "db"
argv = %s
env = { %s = "1" }
ready = { exec = "false", period = "200ms" }

[[run]]
name = "api"
argv = %s
env = { %s = "1" }
depends_on = { db = "ready" }
`, argv, demo.ChildEnv, argv, demo.ChildEnv)
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	r := serverCorral(t, state, "up", "--config", cfg, "--wait", "--timeout", "1500ms")
	stopServer(t, state)
	if r.code != 124 || !strings.Contains(r.stderr, "corral up: db is not ready in time (now starting)") {
		t.Fatalf("up --wait on a db never ready: %+v", r)
	}
	if d := serverCorral(t, state, "down", "--config", cfg); d.code != 0 {
		t.Fatalf("down: %+v", d)
	}
	servicesGone(t, state)
}

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
	"corral/demo/testkit/eventually"
)

// Services are durable: a run waiting for its dependencies and a service between two
// attempts have a record, and the restart budget is in it, so a server killed with
// kill -9, or upgraded, leaves nothing of them behind for the next one.

// waitingConfig is a db whose readiness probe passes once flag exists, and an api
// that waits for it to be ready.
func waitingConfig(t *testing.T, flag string) string {
	argv, _ := json.Marshal([]string{corralBin, "sleep"})
	doc := fmt.Sprintf(`[[run]]
name = "db"
argv = %s
env = { %s = "1" }
ready = { exec = "test -e %s", period = "100ms" }

[[run]]
name = "api"
argv = %s
env = { %s = "1" }
depends_on = { db = "ready" }
`, argv, demo.ChildEnv, flag, argv, demo.ChildEnv)
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// recordsNamed reads the state dir's records of runs called name, from the files
// (no server asked).
func recordsNamed(t *testing.T, state, name string) []map[string]any {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(state, "runs", "*.json"))
	var out []map[string]any
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && m["name"] == name {
			out = append(out, m)
		}
	}
	return out
}

// oneRecord is the one record of name; a second is a duplicate start.
func oneRecord(t *testing.T, state, name string) map[string]any {
	t.Helper()
	recs := recordsNamed(t, state, name)
	if len(recs) != 1 {
		t.Fatalf("%d records of %s: %v", len(recs), name, recs)
	}
	return recs[0]
}

// exitedRecord is name's one record once it says exited: a run's state in memory may
// run ahead of its file while an earlier write of it is still being made.
func exitedRecord(t *testing.T, state, name string) map[string]any {
	t.Helper()
	var rec map[string]any
	eventually.True(t, 20*time.Second, name+"'s record to say exited", func() bool {
		rec = oneRecord(t, state, name)
		return rec["state"] == "exited"
	})
	return rec
}

// runOf is corral info NAME's run, nil when it fails.
func runOf(t *testing.T, state, name string) map[string]any {
	r := serverCorral(t, state, "info", name)
	var m struct{ Run map[string]any }
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &m) != nil {
		return nil
	}
	return m.Run
}

// A run waiting for its dependency has a record (state starting, what it waits
// for); the server killed with kill -9, or upgraded, the next server takes the wait
// over — the same run, its id kept — and starts it once the dependency is ready: one
// start, never two. A waiting run taken over is cancelled as any: ended unstarted,
// its record closed, and it never starts after.
func TestWaitingRunSurvivesItsServer(t *testing.T) {
	for _, how := range []string{"kill -9", "upgrade"} {
		t.Run(how, func(t *testing.T) { waitingRunSurvives(t, how == "upgrade") })
	}
}

func waitingRunSurvives(t *testing.T, upgrade bool) {
	state, flag := serverState(t), filepath.Join(t.TempDir(), "db-ready")
	cfg := waitingConfig(t, flag)
	if r := serverCorral(t, state, "up", "--config", cfg); r.code != 0 {
		t.Fatalf("up: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	var id string
	eventually.True(t, 10*time.Second, "api's record, waiting for db", func() bool {
		recs := recordsNamed(t, state, "api")
		if len(recs) != 1 || recs[0]["state"] != "starting" || recs[0]["waiting_for"] == nil {
			return false
		}
		id = recs[0]["run_id"].(string)
		return true
	})
	if ls := serverCorral(t, state, "ls"); strings.Count(ls.stdout, "waiting for db") != 1 {
		t.Fatalf("ls lists the waiting run once:\n%s", ls.stdout)
	}
	old := serverPID(t, state)
	if upgrade {
		if r := serverCorral(t, state, "server", "--upgrade"); r.code != 0 {
			t.Fatalf("upgrade: %+v", r)
		}
	} else {
		testkit.Pin(t, old).Signal(syscall.SIGKILL)
		waitGone(t, old, "the killed server")
	}
	newServerPID(t, state, old)
	eventually.True(t, 20*time.Second, "the next server to wait for db", func() bool {
		r := runOf(t, state, "api")
		return r != nil && r["id"] == id && r["state"] == "starting" && r["waiting_for"] != nil
	})
	if upgrade { // cancelled while it waits, under the server that took it over
		if k := serverCorral(t, state, "kill", "api"); k.code != 0 {
			t.Fatalf("kill api: %+v", k)
		}
		eventually.True(t, 10*time.Second, "api's record closed", func() bool {
			rec := oneRecord(t, state, "api")
			return rec["state"] == "exited" && rec["reason"] == "manual-cancel"
		})
		os.WriteFile(flag, nil, 0o600)
		if w := serverCorral(t, state, "wait", "db", "--until", "ready", "--timeout", "20s"); w.code != 0 {
			t.Fatalf("db ready: %+v", w)
		}
		// db ready: whatever still waited would start now. Nothing does.
		time.Sleep(500 * time.Millisecond)
		rec := oneRecord(t, state, "api")
		if rec["state"] != "exited" || rec["pid"].(float64) != 0 {
			t.Fatalf("the cancelled waiting run started: %v", rec)
		}
		if r := runOf(t, state, "api"); r == nil || r["state"] != "exited" || r["pid"] != nil {
			t.Fatalf("api after its cancel: %v", r)
		}
		return
	}
	os.WriteFile(flag, nil, 0o600)
	eventually.True(t, 20*time.Second, "api started once db is ready", func() bool {
		r := runOf(t, state, "api")
		return r != nil && r["state"] == "running"
	})
	rec := oneRecord(t, state, "api")
	if rec["run_id"] != id || rec["pid"].(float64) == 0 {
		t.Fatalf("api's record after its start: %v", rec)
	}
	b, _ := os.ReadFile(filepath.Join(state, "events.jsonl"))
	if !strings.Contains(string(b), `"msg":"take-back"`) {
		t.Fatalf("no take-back event:\n%s", b)
	}
}

// With no keeper either (both killed), the records are all there is: corral ls lists
// the waiting run from its record, the next server takes its wait over, and the
// dependency — a run of the dead server, reaped as an orphan once its lease expires —
// can never be ready now: the waiting run ends dependency-failed, never started.
func TestWaitingRunDependencyLostWithItsServer(t *testing.T) {
	state := serverState(t)
	cfg := waitingConfig(t, filepath.Join(t.TempDir(), "never"))
	if r := serverCorral(t, state, "up", "--config", cfg); r.code != 0 {
		t.Fatalf("up: %+v", r)
	}
	eventually.True(t, 10*time.Second, "api's record", func() bool { return len(recordsNamed(t, state, "api")) == 1 })
	db := lsRuns(t, state)["db"].PID
	killKeeperAndServer(t, state)
	endLater(t, testkit.Pin(t, db), syscall.SIGKILL, "db") // if nothing reaps it
	ls := serverCorral(t, state, "ls")
	if ls.code != 0 || !strings.Contains(ls.stdout, "waiting for db") || !strings.Contains(ls.stdout, "(dead)") {
		t.Fatalf("ls without a server:\n%+v", ls)
	}
	// Any verb that needs a server starts one (and a keeper).
	if r := serverCorral(t, state, "spawn", "--name", "other", "--", "true"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	eventually.True(t, 40*time.Second, "api ended dependency-failed", func() bool {
		r := runOf(t, state, "api")
		return r != nil && r["reason"] == "dependency-failed" && r["state"] == "exited"
	})
	r := runOf(t, state, "api")
	if !strings.HasPrefix(fmt.Sprint(r["dependency_error"]), "db ended before it was ready") || r["pid"] != nil {
		t.Fatalf("api: %v", r)
	}
	if rec := exitedRecord(t, state, "api"); rec["reason"] != "dependency-failed" {
		t.Fatalf("api's record: %v", rec)
	}
}

// The restart budget is the record's: a service whose attempt is kept by the keeper
// while its server is killed goes on under the next one with its policy and the
// restarts it had spent, so max_restarts is never exceeded across a crash; and its
// last end is written (its record fenced by the epoch the next server stole it with).
func TestRestartBudgetSurvivesServerKill(t *testing.T) {
	state := serverState(t)
	r := serverCorral(t, state, "spawn", "--name", "svc", "--restart", "always", "--backoff", "0", "--max-restarts", "2",
		"--", "sh", "-c", "sleep 1.5; exit 3")
	if r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	eventually.True(t, 20*time.Second, "attempt 2 running", func() bool {
		r := runOf(t, state, "svc")
		svc, _ := r["service"].(map[string]any)
		return r["state"] == "running" && svc["attempt"] == 2.0
	})
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	eventually.True(t, 30*time.Second, "svc to give up", func() bool {
		r := runOf(t, state, "svc")
		return r != nil && r["state"] == "exited"
	})
	svc := runOf(t, state, "svc")["service"].(map[string]any)
	if svc["attempt"] != 3.0 || !strings.Contains(fmt.Sprint(svc["gave_up"]), "2 restarts within") {
		t.Fatalf("after the crash: attempt %v, gave up %q (want attempt 3: two restarts allowed)", svc["attempt"], svc["gave_up"])
	}
	eventually.True(t, 10*time.Second, "svc's record closed", func() bool {
		rec := oneRecord(t, state, "svc")
		return rec["state"] == "exited" && rec["reason"] == "exit"
	})
}

// A service between two attempts when its server is killed: the next server goes on
// with its backoff for what is left of it (not at once, not never).
func TestBackoffSurvivesServerKill(t *testing.T) {
	state := serverState(t)
	r := serverCorral(t, state, "spawn", "--name", "svc", "--restart", "always", "--backoff", "3s..3s",
		"--", "sh", "-c", "exit 3")
	if r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	var next time.Time
	eventually.True(t, 20*time.Second, "svc restarting", func() bool {
		rec := recordsNamed(t, state, "svc")
		if len(rec) != 1 || rec[0]["state"] != "restarting" {
			return false
		}
		svc := rec[0]["service"].(map[string]any)
		next, _ = time.Parse(time.RFC3339Nano, fmt.Sprint(svc["next_at"]))
		return !next.IsZero()
	})
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	if r := runOf(t, state, "svc"); r == nil || r["state"] != "restarting" && time.Now().Before(next) {
		t.Fatalf("svc under the next server: %v", r)
	}
	eventually.True(t, 20*time.Second, "attempt 2 ended", func() bool {
		r := runOf(t, state, "svc")
		svc, _ := r["service"].(map[string]any)
		a, _ := svc["attempts"].([]any)
		return len(a) >= 2
	})
	a := runOf(t, state, "svc")["service"].(map[string]any)["attempts"].([]any)
	if len(a) < 2 {
		t.Fatalf("attempts: %v", a)
	}
	started, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(a[1].(map[string]any)["started_at"]))
	if started.Before(next.Add(-10 * time.Millisecond)) {
		t.Fatalf("attempt 2 started %v, before its backoff's end %v", started, next)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// Runs made waiting by corral spawn --depends-on, by name and by id, survive their
// server's kill -9: the next server takes their waits over; a restart of one taken
// over keeps it waiting (no start, no second run); both start once, when the
// dependency they wait for succeeds.
func TestSpawnDependsOnSurvivesItsServer(t *testing.T) {
	state, gate := serverState(t), filepath.Join(t.TempDir(), "gate")
	spawn := func(args ...string) result { return serverCorral(t, state, append([]string{"spawn"}, args...)...) }
	mig := spawn("--name", "migrate", "--shell", "while [ ! -e "+gate+" ]; do sleep 0.05; done; exit 0")
	if mig.code != 0 {
		t.Fatalf("spawn migrate: %+v", mig)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	migID := strings.TrimSpace(mig.stdout)
	if r := spawn("--name", "api", "--depends-on", "migrate=succeeded", "--shell", "sleep 30"); r.code != 0 {
		t.Fatalf("spawn api: %+v", r)
	}
	if r := spawn("--name", "after", "--depends-on", migID+"=succeeded", "--shell", "sleep 30"); r.code != 0 {
		t.Fatalf("spawn after: %+v", r)
	}
	ids := map[string]string{}
	for _, name := range []string{"api", "after"} {
		eventually.True(t, 10*time.Second, name+"'s record, waiting", func() bool {
			recs := recordsNamed(t, state, name)
			if len(recs) != 1 || recs[0]["state"] != "starting" || recs[0]["waiting_for"] == nil {
				return false
			}
			ids[name] = recs[0]["run_id"].(string)
			return true
		})
	}
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	for _, name := range []string{"api", "after"} {
		eventually.True(t, 20*time.Second, "the next server to take "+name+"'s wait", func() bool {
			r := runOf(t, state, name)
			return r != nil && r["id"] == ids[name] && r["state"] == "starting" && r["waiting_for"] != nil
		})
	}
	if r := serverCorral(t, state, "restart", "after"); r.code != 0 {
		t.Fatalf("restart of a waiting run taken over: %+v", r)
	}
	if r := runOf(t, state, "after"); r == nil || r["state"] != "starting" || r["waiting_for"] == nil {
		t.Fatalf("after its restart, still waiting: %v", r)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"api", "after"} {
		eventually.True(t, 20*time.Second, name+" started once migrate succeeded", func() bool {
			r := runOf(t, state, name)
			return r != nil && r["state"] == "running"
		})
		if rec := oneRecord(t, state, name); rec["run_id"] != ids[name] || rec["pid"].(float64) == 0 {
			t.Fatalf("%s's record after its start: %v", name, rec)
		}
	}
}

// A run waiting for a dependency named by its id (corral spawn --depends-on ID),
// whose server, keeper and dependency are all killed: the next server reaps the
// dependency as lost and ends the waiting run dependency-failed, as it does for a
// dependency named by name, instead of leaving it waiting for ever.
func TestSpawnDependsOnByIDLostWithItsServer(t *testing.T) {
	state := serverState(t)
	db := serverCorral(t, state, "spawn", "--name", "db", "--", "sleep", "300")
	if db.code != 0 {
		t.Fatalf("spawn db: %+v", db)
	}
	dbID := strings.TrimSpace(db.stdout)
	if r := serverCorral(t, state, "spawn", "--name", "api", "--depends-on", dbID+"=succeeded", "--shell", "sleep 30"); r.code != 0 {
		t.Fatalf("spawn api: %+v", r)
	}
	eventually.True(t, 10*time.Second, "api's record", func() bool { return len(recordsNamed(t, state, "api")) == 1 })
	pid := lsRuns(t, state)["db"].PID
	killKeeperAndServer(t, state)
	dbProc := testkit.Pin(t, pid)
	dbProc.Signal(syscall.SIGKILL) // the dependency is gone with them
	waitGone(t, pid, "db")
	if r := serverCorral(t, state, "spawn", "--name", "other", "--", "true"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	// Its reason is set as its end begins, before its state says exited.
	eventually.True(t, 40*time.Second, "api ended dependency-failed", func() bool {
		r := runOf(t, state, "api")
		return r != nil && r["reason"] == "dependency-failed" && r["state"] == "exited"
	})
	rec := exitedRecord(t, state, "api")
	if rec["reason"] != "dependency-failed" || rec["pid"].(float64) != 0 {
		t.Fatalf("api's record: %v", rec)
	}
}

// An agent service between two attempts when its server is killed: the next server
// takes its backoff over, and the attempt it starts is followed as any attempt is —
// not left waiting, idle at its prompt, its question told.
func TestAgentDetectedAfterTakeBack(t *testing.T) {
	env, _ := agentEnv(t)
	ts := spawnToyService(t, env, "3s..3s")
	state := ts.state
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	ts.ask(1)
	old := serverPID(t, state)
	if err := syscall.Kill(ts.info().Run.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, "toy's record, restarting", func() bool {
		recs := recordsNamed(t, state, "toy")
		return len(recs) == 1 && recs[0]["state"] == "restarting"
	})
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old) // the keeper starts one for the backoff it left
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
	ts.attempt2Idle("attempt 2 under the next server")
	ts.ask(2)
	if r := agentCorral(t, env, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
}

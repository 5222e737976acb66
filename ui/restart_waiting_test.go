package ui

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"corral/config"
	"corral/demo"
	"corral/demo/testkit/eventually"
	"corral/runs"
)

// liveProcs counts the runs called name that may have a process: started, not yet
// verified empty.
func liveProcs(runsByID map[string]runs.Info, name string) int {
	n := 0
	for _, i := range runsByID {
		if i.Name == name && !i.Ended() && (i.PID != 0 || i.State != runs.Starting) {
			n++
		}
	}
	return n
}

// TestRestartWaitingRunNeverStartsTwo restarts (R's command) a run waiting for a
// dependency at the moment the dependency appears, many times: whichever wins, at no
// moment do two runs of it have a process, the old one ends, the new one starts,
// and no wait is left behind.
func TestRestartWaitingRunNeverStartsTwo(t *testing.T) {
	state := t.TempDir()
	reg, err := runs.OpenRegistry(filepath.Join(state, "state"), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	sup, err := runs.New(runs.WithDefaults(config.Default()), runs.WithRegistry(reg), runs.WithLogDir(filepath.Join(state, "logs")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sup.Shutdown(context.Background()) })
	c := Local{sup}
	seen := map[string]runs.Info{}
	var most int
	_, sub := sup.Subscribe()
	defer sub.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for e := range sub.C {
			if e.Type == runs.EventOutput {
				continue
			}
			seen[e.Run.ID] = e.Run
			most = max(most, liveProcs(seen, "api"))
		}
	}()
	child := func(name string) runs.Spec {
		argv, env := demo.Child("sleep")
		return runs.Spec{Name: name, Argv: argv, Env: env}
	}
	for round := range 8 {
		api := child("api")
		api.DependsOn = []runs.Dependency{{Name: "db", Condition: runs.CondStarted}}
		old, err := sup.Spawn(api)
		if err != nil {
			t.Fatal(err)
		}
		eventually.True(t, 10*time.Second, "api waiting", func() bool { i, _ := sup.Info(old); return i.Waiting() })
		sel, _ := sup.Info(old)
		if why := restartRefusal(sel); why != "" {
			t.Fatalf("R refused on a waiting run: %s", why)
		}
		dbc := make(chan string, 1)
		go func() { id, _ := sup.Spawn(child("db")); dbc <- id }()
		if round%2 == 1 {
			eventually.True(t, 10*time.Second, "old api started", func() bool { i, _ := sup.Info(old); return i.PID != 0 || i.Ended() })
		}
		msg := restartCmd(c, restartSpec(sel), old, sel.Waiting())().(SpawnedMsg)
		if msg.Err != nil {
			t.Fatal(msg.Err)
		}
		if i, _ := sup.Info(old); !i.Ended() || !i.Cleanup.VerifiedEmpty {
			t.Fatalf("the restarted run is %s (verified %v) after the restart", i.State, i.Cleanup.VerifiedEmpty)
		}
		eventually.True(t, 10*time.Second, "new api running", func() bool {
			i, _ := sup.Info(msg.ID)
			return i.State == runs.Running
		})
		for _, id := range []string{old, msg.ID, <-dbc} {
			sup.Cancel(id)
			sup.Wait(context.Background(), id)
			sup.Remove(id)
		}
	}
	eventually.True(t, 5*time.Second, "no wait left", func() bool {
		buf := make([]byte, 1<<20)
		return !bytes.Contains(buf[:runtime.Stack(buf, true)], []byte("(*run).awaitDeps"))
	})
	sub.Close()
	wg.Wait()
	if most != 1 {
		t.Fatalf("at most %d runs of api had a process at once, want 1", most)
	}
}

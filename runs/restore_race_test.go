package runs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/agentstate"
)

func init() { roles["restore"] = roleRestore }

// roleRestore is a Corral that restores every lost run of its state dir once the file
// "go" is there (so that two start together), prints what it did, one JSON line per
// lost run, and ends.
func roleRestore(dir string) error {
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		return err
	}
	toy, err := agentstate.ParseRules("toy.toml", []byte(restoreToyRules))
	if err != nil {
		return err
	}
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()), WithAgents(agentstate.Builtin().With(toy)))
	if err != nil {
		return err
	}
	if err, _ := eventually.Within(30*time.Second, func() (error, bool) {
		_, err := os.Stat(filepath.Join(dir, "go"))
		return nil, err == nil
	}); err != nil {
		return err
	}
	out, _ := s.Restore(context.Background(), RestoreOptions{})
	for _, r := range out {
		json.NewEncoder(os.Stdout).Encode(r)
	}
	s.Shutdown(context.Background())
	reg.Close()
	os.Exit(0)
	return nil
}

// Two Corrals on one state dir (a server and a --local UI, say) restoring at the same
// moment start each lost run once between them, and a conversation two lost records
// name once: the record is claimed under the registry's lock before its run starts.
func TestRestoreTwoCorralsAtOnce(t *testing.T) {
	dir := t.TempDir()
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	bin := filepath.Join(t.TempDir(), "toy-agent")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	const shared = "5e55a0e1-0000-4000-8000-00000000000a"
	var want []string
	if err := reg.withLock(func() error {
		for i := range 6 {
			id := fmt.Sprintf("rlost%d", i)
			sid := fmt.Sprintf("5e55a0e1-0000-4000-8000-%012d", i)
			if i >= 4 {
				sid = shared // two records, one conversation: resumed once
			} else {
				want = append(want, id)
			}
			rec := Record{ID: id, Name: "agent" + id[5:], Backend: KindPTY, PID: 4242, State: Exited, Reason: Lost,
				CreatedAt: now.Add(time.Duration(i) * time.Millisecond), AgentStatus: AgentStatus{Agent: "toy"}, SessionID: sid,
				OwnerInstanceID: "igone", Spec: Spec{Name: "agent" + id[5:], Argv: []string{bin}, PTY: true}}
			if err := reg.write(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var outs [2]strings.Builder
	var errs [2]*strings.Builder
	done := make(chan error, 2)
	for i := range 2 {
		cmd, stderr := startRole(t, "restore", dir)
		cmd.Stdout = &outs[i]
		errs[i] = stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatalf("a restoring Corral: %v\n%s\n%s", err, errs[0], errs[1])
		}
	}
	started := map[string][]string{}
	for _, o := range outs {
		dec := json.NewDecoder(strings.NewReader(o.String()))
		for dec.More() {
			var r Restored
			if err := dec.Decode(&r); err != nil {
				t.Fatal(err)
			}
			if r.ID != "" {
				started[r.From] = append(started[r.From], r.ID)
			}
		}
	}
	for _, id := range want {
		if len(started[id]) != 1 {
			t.Errorf("%s started %d times (%v), want once\n%s\n%s", id, len(started[id]), started[id], outs[0].String(), outs[1].String())
		}
	}
	if n := len(started["rlost4"]) + len(started["rlost5"]); n != 1 {
		t.Errorf("conversation %s resumed %d times (%v), want once", shared, n, started)
	}
}

// A NoWait dry run (the UI's question at start) answers at once while a dead
// server's leases still hold its runs, and says how long until they run out; a
// restore waits them out.
func TestRestoreDryRunNoWait(t *testing.T) {
	dir := t.TempDir()
	killedSupervisor(t, dir)
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithRegistry(reg), WithDefaults(shortLeases()))
	var held int
	var wait time.Duration
	began := time.Now()
	if _, err := s.Restore(context.Background(), RestoreOptions{DryRun: true, NoWait: true,
		Waiting: func(n int, w time.Duration) { held, wait = n, w }}); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	if held != 2 || wait <= 0 || took >= wait {
		t.Errorf("a NoWait dry run: %d runs held for %v, answered in %v (want 2, at once)", held, wait, took)
	}
	held = 0
	if _, err := s.Restore(context.Background(), RestoreOptions{DryRun: true,
		Waiting: func(n int, w time.Duration) { held = n }}); err != nil {
		t.Fatal(err)
	}
	if recs, _ := reg.List(); slices.ContainsFunc(recs, func(r Record) bool { return r.State != Exited }) {
		t.Errorf("a dry run that waits left runs of the dead server open: %+v", recs)
	}
}

//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// Ownership, round 3, through the binary: what reconcile trusts, and state dirs.

// sessionsCorral is serverCorral on the session backend.
func sessionsCorral(t testing.TB, state string, args ...string) result {
	t.Helper()
	cmd := corral(t, args...)
	cmd.Env = append(cmd.Env, "CORRAL_STATE_DIR="+state, "CORRAL_CGROUP_ROOT=off")
	return run(t, cmd)
}

// On sessions: an `env -i setsid` daemon a run started, recorded as its escapee, is
// ended by the reconcile after SIGKILL of the keeper and the server, and the record is
// verified empty only with it gone. Before: it survived, and the record said
// "verified_empty": true.
func TestSessionsEscapeeEndedAfterCrash(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) not installed")
	}
	state := serverState(t)
	pidFile := filepath.Join(t.TempDir(), "daemon")
	script := fmt.Sprintf(`setsid -f sh -c 'echo $$ > %s.tmp; mv %s.tmp %s; exec env -i sleep 300'; exec sleep 300`,
		pidFile, pidFile, pidFile)
	sp := sessionsCorral(t, state, "spawn", "--name", "forks", "--shell", "--", script)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	id := strings.TrimSpace(sp.stdout)
	var daemon int
	eventually.True(t, 10*time.Second, "the daemon to start", func() bool {
		b, _ := os.ReadFile(pidFile)
		daemon, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return daemon > 1
	})
	fp := testkit.Pin(t, daemon)
	endLater(t, fp, syscall.SIGKILL, "the daemon") // only if the test failed
	root := recordedPID(t, state, "forks")
	endLater(t, testkit.Pin(t, root), syscall.SIGKILL, "the run") // only if the test failed
	eventually.True(t, 20*time.Second, "the daemon recorded as the run's escapee", func() bool {
		return strings.Contains(recordOf(t, state, id), fmt.Sprintf(`"pid": %d,`, daemon))
	})
	keeper, server := keeperPID(t, state), serverPID(t, state)
	testkit.Pin(t, keeper).Signal(syscall.SIGKILL)
	testkit.Pin(t, server).Signal(syscall.SIGKILL)
	waitGone(t, keeper, "the killed keeper")
	waitGone(t, server, "the killed server")
	// A killed process shows as a zombie before its last thread has let go of its
	// files: its instance lock may read as held for a moment (the owner alive).
	var r result
	eventually.True(t, 20*time.Second, "a reconcile that finds the owner dead", func() bool {
		r = sessionsCorral(t, state, "reconcile", "--json")
		return r.code != 0 || !strings.Contains(r.stdout, "owned by live instance")
	})
	if r.code != 0 || !strings.Contains(r.stdout, `"decision":"orphan-reaped"`) {
		t.Fatalf("reconcile: %+v", r)
	}
	waitGone(t, daemon, "the env -i daemon recorded as the run's escapee")
	waitGone(t, root, "the run")
	var rec struct {
		Cleanup struct {
			Killed        int  `json:"killed"`
			VerifiedEmpty bool `json:"verified_empty"`
		} `json:"cleanup"`
	}
	json.Unmarshal([]byte(recordOf(t, state, id)), &rec)
	if !rec.Cleanup.VerifiedEmpty || rec.Cleanup.Killed != 2 {
		t.Errorf("record cleanup %+v, want verified empty with the run and its daemon killed\n%s", rec.Cleanup, r.stdout)
	}
}

// recordOf is run id's record file.
func recordOf(t testing.TB, state, id string) string {
	b, _ := os.ReadFile(filepath.Join(state, "runs", id+".json"))
	return string(b)
}

// A reconcile in a copy (cp -a) of a live server's state dir leaves the original's
// live run alone and says why, in its --json decision and on stderr. Before: the copy
// found the copied owner's lock free and its lease expired, and reaped the original
// server's run.
func TestReconcileInCopiedStateDir(t *testing.T) {
	t.Parallel()
	state := serverState(t)
	if sp := serverCorral(t, state, "spawn", "--name", "live", "--", "sleep", "300"); sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	pid := recordedPID(t, state, "live")
	fp := testkit.Pin(t, pid)
	copied := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", state, copied).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
	var r result
	eventually.True(t, 30*time.Second, "the copy's reconcile to judge the run", func() bool {
		r = run(t, corral(t, "reconcile", "--json", "--state-dir", copied))
		return r.code != 0 || strings.Contains(r.stdout, `"decision"`)
	})
	var d struct{ Decision, Detail string }
	json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &d)
	if r.code != 0 || d.Decision != "left-alone" || !strings.Contains(d.Detail, "another state dir") {
		t.Errorf("the copy's reconcile: exit %d %+v\nstdout %s\nstderr %s", r.code, d, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "is a copy") {
		t.Errorf("the copy's reconcile said nothing of the copy: %s", r.stderr)
	}
	// Its lease long expired in the copy: a reconcile there once reaped it now.
	eventually.True(t, 30*time.Second, "a later reconcile in the copy", func() bool {
		r = run(t, corral(t, "reconcile", "--json", "--state-dir", copied))
		return strings.Contains(r.stdout, `"decision"`) && !strings.Contains(r.stderr, "waiting")
	})
	if alive, _ := fp.Alive(); !alive {
		t.Fatalf("a reconcile in the copy killed the original's live run: %s", r.stdout)
	}
	if o := lsRuns(t, state)["live"]; o.State != "running" {
		t.Errorf("the original's run is %s", o.State)
	}
}

// A state dir Corral refuses gets spawn the real reason, not "no corral server is
// running", and nothing is written into it (keeper.lock, keeper.log) nor created in a
// directory another user owns or others can write into. Root only (chown).
func TestSpawnOnRefusedStateDir(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("making another user's directory needs root")
	}
	foreign := filepath.Join(t.TempDir(), "theirs")
	os.Mkdir(foreign, 0o700)
	if err := os.Chown(foreign, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(t.TempDir(), "open")
	os.Mkdir(open, 0o700)
	os.Chmod(open, 0o777)
	for _, c := range []struct{ state, dir, want string }{
		{foreign, foreign, "is owned by uid 65534"},
		{filepath.Join(foreign, "state"), foreign, "owned by uid 65534"},
		{filepath.Join(open, "state"), open, "writable by others"},
	} {
		t.Cleanup(func() { // a server started there (a failure) is shut down
			if _, err := os.Stat(filepath.Join(c.state, "server.lock")); err == nil {
				serverCorral(t, c.state, "shutdown")
			}
		})
		for _, verb := range [][]string{{"spawn", "--", "true"}, {"server"}} {
			r := serverCorral(t, c.state, verb...)
			if r.code == 0 || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "no corral server") {
				t.Errorf("%s on %s: exit %d, stderr %q: want the reason (%s)", verb[0], c.state, r.code, r.stderr, c.want)
			}
			if names, _ := os.ReadDir(c.dir); len(names) > 0 {
				t.Errorf("%s on %s: %v written into %s before its owner was checked", verb[0], c.state, names, c.dir)
			}
		}
	}
}

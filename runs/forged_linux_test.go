package runs

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/reaper"
)

// nobody is the uid and gid of another user's processes in these tests.
const nobody = 65534

// foreignSleeper starts /bin/sleep as uid 65534 in a session of its own, with env
// added, and returns its fingerprint; the test's cleanup kills it by that identity.
// Skips unless the test runs as root (only root can start another user's process).
func foreignSleeper(t *testing.T, env ...string) reaper.Fingerprint {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("starting a process as another uid needs root")
	}
	cmd := exec.Command("sleep", "1000")
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true,
		Credential: &syscall.Credential{Uid: nobody, Gid: nobody, NoSetGroups: true}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fp := testkit.Pin(t, cmd.Process.Pid)
	t.Cleanup(func() { fp.Signal(syscall.SIGKILL); cmd.Wait() })
	// Its uid is set before the exec; the exec is what the environment check reads.
	eventually.True(t, 10*time.Second, "the foreign sleeper to exec", func() bool {
		argv, _ := reaper.ReadCmdline(fp.PID)
		return len(argv) > 0 && argv[0] == "sleep"
	})
	return fp
}

// A record carrying the exact fingerprint of another user's session
// leader, which even carries the run's marker, is not obeyed: the reconcile closes it
// lost and signals nothing. Before: a root Corral SIGTERMed uid 65534's sleep. Both
// kinds of record: with a secret, and as written before runs had one.
func TestForgedRecordSparesAnotherUID(t *testing.T) {
	for _, secret := range []string{newSecret(), ""} {
		reg := openReg(t, t.TempDir())
		s := regSup(t, reg)
		id := ownID("rforeign")
		marker := RunSecretEnv + "=" + secret
		if secret == "" {
			marker = RunIDEnv + "=" + id
		}
		fp := foreignSleeper(t, marker)
		deadSecretRecord(t, reg, id, secret, fp)
		d := reconcileOne(t, s, id)
		if alive, _ := fp.Alive(); !alive {
			t.Fatalf("another user's process named by a forged record (secret %q) was killed (%s: %s)",
				secret, d.Decision, d.Detail)
		}
		if d.Decision != VerdictLost {
			t.Errorf("secret %q: decision %s (%s), want lost", secret, d.Decision, d.Detail)
		}
	}
}

// A record naming a process of our own uid that carries no marker of the
// run is not obeyed either. Before: SIGTERMed, although it had no CORRAL_RUN_ID at all.
func TestForgedRecordSparesUnmarkedProcess(t *testing.T) {
	for _, secret := range []string{newSecret(), ""} {
		reg := openReg(t, t.TempDir())
		s := regSup(t, reg)
		id := ownID("runmarked")
		_, fp := outsider(t, []string{RunIDEnv + "=" + ownID("rother")}, "sleep")
		deadSecretRecord(t, reg, id, secret, fp)
		d := reconcileOne(t, s, id)
		if alive, _ := fp.Alive(); !alive {
			t.Fatalf("a process without the run's marker (record secret %q) was killed (%s: %s)",
				secret, d.Decision, d.Detail)
		}
		if d.Decision != VerdictLost || !strings.Contains(d.Detail, "not this run's") {
			t.Errorf("secret %q: decision %s (%s), want lost: not this run's", secret, d.Decision, d.Detail)
		}
	}
}

// Every run carries a secret of 128 random bits in its environment and in
// its record (0600), and nowhere people or programs read: not in events.jsonl, the
// run's log, Info (what the server, reports and the UI carry) or Record.Public (what
// corral ls prints).
func TestRunSecretKeptPrivate(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	s := regSup(t, reg)
	id := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, id, "ready sleep") // past its exec: an environment read mid-exec is empty
	info, _ := s.Info(id)
	secret, err := reaper.EnvVar(info.PID, RunSecretEnv)
	if err != nil || len(secret) != 32 {
		t.Fatalf("%s = %q (%v), want 32 hex digits", RunSecretEnv, secret, err)
	}
	rec, err := reg.record(id)
	if err != nil || rec.Secret != secret {
		t.Fatalf("record secret %q (%v), want the run's", rec.Secret, err)
	}
	if st, _ := os.Stat(reg.recordPath(id)); st.Mode().Perm() != 0o600 {
		t.Errorf("record mode %v", st.Mode())
	}
	s.Cancel(id)
	info = waitEnd(t, s, id)
	shown, _ := json.Marshal([]any{info, rec.Public(), NewReport(info, nil, nil)})
	events, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	transcript, _ := os.ReadFile(info.Transcript)
	for what, b := range map[string][]byte{"info, ls, report": shown, "events.jsonl": events, "the log": transcript} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the secret is in %s", what)
		}
	}
}

// An adopted run is paused and resumed through what it provably owns (its
// root carries its secret), never by signalling a session by number.
func TestAdoptedRunPausedByClaim(t *testing.T) {
	dir := t.TempDir()
	ids, members := killedSupervisor(t, dir)
	s := regSup(t, openReg(t, dir), WithPolicy(PolicyAdopt))
	reconcileUntilSettled(t, s)
	info, _ := s.Info(ids[1])
	if err := s.Pause(ids[1]); err != nil {
		t.Fatal(err)
	}
	what, paused := "the adopted root to stop", func() bool {
		p, err := reaper.ReadProc(info.PID)
		return err == nil && p.State == 'T'
	}
	if info.Cgroup != "" { // on cgroups: the cgroup its record names (checked to be a run's) is frozen
		cg := &reaper.Cgroup{Path: info.Cgroup}
		what, paused = "the adopted run's cgroup to freeze", func() bool {
			frozen, err := cg.Frozen()
			return err == nil && frozen
		}
	}
	eventually.True(t, 10*time.Second, what, paused)
	if err := s.Resume(ids[1]); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
	assertPIDsGone(t, members)
}

// After Corral was SIGKILLed, a process the user started with a copied
// run id (CORRAL_RUN_ID is printed by ls) is not reaped with the run: only the run's
// own processes are. Before: "orphan-reaped … killed 4", the spoofer among them.
func TestSpoofedRunIDAfterCrashSpared(t *testing.T) {
	dir := t.TempDir()
	ids, members := killedSupervisor(t, dir)
	_, spoof := outsider(t, []string{RunIDEnv + "=" + ids[0]}, "sleep")
	reg := openReg(t, dir)
	s := regSup(t, reg)
	ds := reconcileUntilSettled(t, s)
	if alive, _ := spoof.Alive(); !alive {
		t.Fatalf("a process carrying only a copied run id was reaped: %+v", ds[ids[0]])
	}
	for _, id := range ids {
		if d := ds[id]; d.Decision != VerdictReaped {
			t.Errorf("%s: %s (%s), want orphan-reaped", id, d.Decision, d.Detail)
		}
	}
	assertPIDsGone(t, members)
}

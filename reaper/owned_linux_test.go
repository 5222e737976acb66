package reaper

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// In claim mode, a live root that carries no marker of the run, or that
// runs as another uid though it carries it, is not the run's: nothing is claimed, and
// a claim-mode Terminate signals nothing. Before: both were SIGTERMed.
func TestClaimRefusesUnownedRoot(t *testing.T) {
	run := ownMarker("rowned")
	unmarked := start(t, "sleep")
	unmarked.line("ready sleep")
	roots := map[string]Fingerprint{"unmarked": unmarked.known[0]}
	if os.Geteuid() == 0 {
		roots["another uid"] = foreignMarked(t, run)
	}
	for name, root := range roots {
		claim := Claim{Root: root, EnvKey: "CORRAL_RUN_ID", EnvValue: run, Find: true}
		if got, err := Claimed(nil, claim, nil); err != nil || len(got) != 0 {
			t.Errorf("%s root: claimed %+v (%v), want nothing", name, got, err)
		}
		if err := Owned(root.PID, claim); !errors.Is(err, ErrNotOurs) {
			t.Errorf("%s root: Owned = %v, want ErrNotOurs", name, err)
		}
		tg := target(root.PID)
		tg.Claim = &claim
		if rep := Terminate(t.Context(), tg); rep.Killed != 0 || len(rep.Steps) != 0 {
			t.Errorf("%s root: terminate %+v, want nothing signalled", name, rep)
		}
		if alive, _ := root.Alive(); !alive {
			t.Fatalf("%s root was killed", name)
		}
	}
}

// foreignMarked starts /bin/sleep as uid 65534 with the run's marker and returns its
// fingerprint once it has exec'd; the test's cleanup kills it by that identity.
func foreignMarked(t *testing.T, run string) Fingerprint {
	t.Helper()
	cmd := exec.Command("sleep", "1000")
	cmd.Env = append(os.Environ(), "CORRAL_RUN_ID="+run)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true,
		Credential: &syscall.Credential{Uid: 65534, Gid: 65534, NoSetGroups: true}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fp, err := Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fp.Signal(syscall.SIGKILL); cmd.Wait() })
	return fp
}

// Without Find, a process that carries the marker but descends from
// nothing the claim proves is not claimed (a public marker, the run id, can be
// copied); with Find (a secret marker) it is.
func TestClaimFindsByMarkerOnlyWithFind(t *testing.T) {
	run := ownMarker("rfind")
	root := startCmd(t, markedCmd(run, "sleep"))
	root.line("ready sleep")
	marked := startMarked(t, run)
	claim := Claim{Root: root.known[0], EnvKey: "CORRAL_RUN_ID", EnvValue: run}
	if got, _ := Claimed(nil, claim, nil); len(got) != 1 || got[0].PID != root.pid() {
		t.Errorf("without Find: claimed %+v, want the root alone", got)
	}
	claim.Find = true
	if got, _ := Claimed(nil, claim, nil); len(got) != 2 {
		t.Errorf("with Find: claimed %+v, want the root and the marked sleeper %d", got, marked.pid())
	}
}

// An adopted run is paused and resumed through SignalClaimed: the claimed root gets
// the signal through its pidfd, an unmarked process in no relation to it does not.
func TestSignalClaimed(t *testing.T) {
	run := ownMarker("rsignal")
	root := startCmd(t, markedCmd(run, "sleep"))
	root.line("ready sleep")
	bystander := start(t, "sleep")
	bystander.line("ready sleep")
	claim := Claim{Root: root.known[0], EnvKey: "CORRAL_RUN_ID", EnvValue: run}
	if err := SignalClaimed(claim, nil, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	root.waitState('T')
	if p, _ := ReadProc(bystander.pid()); p.State == 'T' {
		t.Error("a process the claim does not prove was stopped")
	}
	if err := SignalClaimed(claim, nil, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	root.waitState('S')
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/runs/client/sshtest"
)

// hostsConfig writes a config whose [[host]] entries are the fleet's hosts, each
// reached with corral at its absolute path (an ssh session's PATH is sshd's).
func hostsConfig(t testing.TB, names ...string) string {
	t.Helper()
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "[[host]]\nname = %q\nssh = %q\ncorral = %q\n\n", n, n, corralBin)
	}
	path := filepath.Join(t.TempDir(), "corral.toml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// selectRun selects the run named name with the list's filter, and clears the filter.
func (x *tmuxTerm) selectRun(name string) {
	x.t.Helper()
	x.keys("/")
	x.text(name)
	x.keys("Enter")
	x.keys("Escape")
}

// Three hosts in one UI over real OpenSSH: this machine's server and two others'
// (alpha and beta, each an sshd with its own state dir). The list groups the runs
// under each host's header; keys reach the run of each host; beta's sshd stopped (its
// connections cut) makes its header say unreachable while alpha and this machine go
// on taking keys; beta's sshd back, the UI reconnects by itself and beta's run, which
// went on, takes keys again. Detaching ends nothing.
func TestHostsInOneUI(t *testing.T) {
	fleet := sshtest.Start(t, "alpha", "beta")
	state := serverState(t)
	cfg := hostsConfig(t, "alpha", "beta")
	for _, h := range []struct{ name, dir string }{{"here", state}, {"far-a", fleet.Host("alpha").StateDir}, {"far-b", fleet.Host("beta").StateDir}} {
		if r := serverCorral(t, h.dir, "spawn", "--pty", "--name", h.name, "--shell", "--", `while read l; do echo "`+h.name+` $l"; done`); r.code != 0 {
			t.Fatalf("spawn %s: %+v", h.name, r)
		}
	}
	x := startTmux(t, 160, 45, fmt.Sprintf("env CORRAL_SSH='%s' CORRAL_CONFIG=%s CORRAL_STATE_DIR=%s %s attach",
		fleet.SSH, cfg, state, corralBin))
	x.waitFor(`local · connected[\s\S]*here\s+pty\s+running[\s\S]*alpha · connected[\s\S]*far-a\s+pty\s+running[\s\S]*beta · connected[\s\S]*far-b\s+pty\s+running`, 30*time.Second)
	for _, name := range []string{"far-b", "far-a", "here"} {
		x.selectRun(name)
		x.typeInFocus("hi", name+` hi`)
	}

	fleet.Host("beta").Stop()
	x.waitFor(`beta · unreachable since`, 30*time.Second)
	x.waitFor(`host beta unreachable`, 10*time.Second)
	x.selectRun("far-a")
	x.typeInFocus("while-beta-away", `far-a while-beta-away`)
	x.selectRun("here")
	x.typeInFocus("still-here", `here still-here`)

	fleet.Host("beta").Restart()
	x.waitFor(`beta · connected`, 60*time.Second)
	x.selectRun("far-b")
	x.typeInFocus("back", `far-b back`)

	x.keys("D")
	x.waitFor(`detached from 3 hosts; their runs keep running[\s\S]*CORRAL-EXIT=0`, 10*time.Second)
	for _, h := range []struct{ name, dir string }{{"here", state}, {"far-a", fleet.Host("alpha").StateDir}, {"far-b", fleet.Host("beta").StateDir}} {
		if r := serverCorral(t, h.dir, "poll", "--json", h.name); !strings.Contains(r.stdout, `"state": "running"`) {
			t.Errorf("%s did not outlive the detach: %+v", h.name, r)
		}
	}
}

// corral attach --ssh HOST alone: a host that drops is tried again, the UI stays up
// and goes on once it is back; a host that cannot be reached at all is one error and
// no UI.
func TestAttachOneHostReconnects(t *testing.T) {
	fleet := sshtest.Start(t, "alpha")
	cfg := hostsConfig(t, "alpha")
	alpha := fleet.Host("alpha")
	if r := serverCorral(t, alpha.StateDir, "spawn", "--pty", "--name", "far", "--shell", "--", `while read l; do echo "far $l"; done`); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	env := fmt.Sprintf("env CORRAL_SSH='%s' CORRAL_CONFIG=%s %s", fleet.SSH, cfg, corralBin)
	x := startTmux(t, 140, 40, env+" attach --ssh alpha")
	x.waitFor(`alpha · connected[\s\S]*far\s+pty\s+running`, 30*time.Second)
	x.typeInFocus("one", `far one`)
	alpha.Stop()
	x.waitFor(`alpha · unreachable since`, 30*time.Second)
	alpha.Restart()
	x.waitFor(`alpha · connected`, 60*time.Second)
	x.typeInFocus("two", `far two`)
	x.keys("D")
	x.waitFor(`detached from host alpha; its runs keep running[\s\S]*CORRAL-EXIT=0`, 10*time.Second)

	alpha.Stop()
	y := startTmux(t, 140, 40, env+" attach --ssh alpha")
	y.waitFor(`corral: host alpha: ssh alpha: .*Connection refused[\s\S]*CORRAL-EXIT=1`, 30*time.Second)
}

// A host that goes silent without closing anything (its sshds stopped: a machine off
// the network, asleep) is found unreachable by ssh's keep-alives within seconds, not
// TCP's hours; once it answers again the UI reconnects and its run takes keys.
func TestHostGoneSilent(t *testing.T) {
	fleet := sshtest.Start(t, "alpha")
	cfg := hostsConfig(t, "alpha")
	alpha := fleet.Host("alpha")
	if r := serverCorral(t, alpha.StateDir, "spawn", "--pty", "--name", "far", "--shell", "--", `while read l; do echo "far $l"; done`); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	x := startTmux(t, 140, 40, fmt.Sprintf("env CORRAL_SSH='%s' CORRAL_CONFIG=%s %s attach --ssh alpha", fleet.SSH, cfg, corralBin))
	x.waitFor(`alpha · connected[\s\S]*far\s+pty\s+running`, 30*time.Second)
	alpha.Freeze()
	frozen := time.Now()
	x.waitFor(`alpha · unreachable since`, 60*time.Second)
	t.Logf("a silent host found unreachable after %s", time.Since(frozen).Round(time.Second))
	alpha.Thaw()
	x.waitFor(`alpha · connected`, 60*time.Second)
	x.typeInFocus("awake", `far awake`)
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)
}

// A host whose corral speaks another protocol shows so in its header, and corral
// doctor says which corral each side has; the other hosts work as ever.
func TestHostVersionMismatchInOneUI(t *testing.T) {
	fleet := sshtest.Start(t, "alpha", "beta")
	state := serverState(t)
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[[host]]\nname = \"alpha\"\nssh = \"alpha\"\ncorral = %q\n\n[[host]]\nname = \"beta\"\nssh = \"beta\"\ncorral = %q\n",
		corralBin, nextCorral(t))), 0o644)
	if r := serverCorral(t, fleet.Host("alpha").StateDir, "spawn", "--pty", "--name", "far-a", "--shell", "--", `while read l; do echo "far-a $l"; done`); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	env := fmt.Sprintf("env CORRAL_SSH='%s' CORRAL_CONFIG=%s CORRAL_STATE_DIR=%s", fleet.SSH, cfg, state)
	x := startTmux(t, 160, 45, env+" "+corralBin+" attach")
	x.waitFor(`alpha · connected[\s\S]*far-a\s+pty\s+running[\s\S]*beta · version mismatch since`, 30*time.Second)
	x.waitFor(`host beta: .*protocol`, 10*time.Second)
	x.selectRun("far-a")
	x.typeInFocus("fine", `far-a fine`)
	x.keys("D")
	x.waitFor(`CORRAL-EXIT=0`, 10*time.Second)

	cmd := exec.Command(corralBin, "doctor")
	cmd.Env = append(os.Environ(), "CORRAL_SSH="+fleet.SSH, "CORRAL_CONFIG="+cfg, "CORRAL_STATE_DIR="+state)
	doc := run(t, cmd)
	if doc.code != 1 || !strings.Contains(doc.stdout, "ssh beta: corral 0.2.0-next (protocol 2), here corral") ||
		!strings.Contains(doc.stdout, "another protocol") {
		t.Errorf("doctor with a host of another protocol: %+v", doc)
	}
}

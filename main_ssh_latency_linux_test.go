package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/client/sshtest"
)

// The latency budgets over ssh, against a plain `ssh -t HOST tmux attach`.
// Both benchmarks measure, side by side as BenchmarkTypedEcho does (one sample of each
// series in turn, the order shuffled every round; tmux 3.3a at 186×51 as the outer terminal, its
// pane captured back to back until the token shows), a program on alpha, a real sshd
// of runs/client/sshtest:
//
//   - ssh-tmux: a tmux server on alpha (a socket of its own) running the program, and
//     the outer pane running `ssh -t alpha tmux -S SOCK attach`;
//   - corral-ssh: a PTY run of the program on alpha's server (corral spawn), and the
//     outer pane running `corral attach --ssh alpha` (a [[host]] of the config, so
//     corral is found by its path there), the run selected and focused;
//   - corral-fleet: another run of the program on alpha, reached through the UI over
//     several hosts, `corral attach --ssh local --ssh alpha` (client.Fleet), selected
//     with the list's filter and focused: what the Fleet's routing costs over one
//     Remote;
//   - tmux: a bare local tmux pane running the program, the floor.
//
// Every hop is on this machine (sshd on 127.0.0.1): the figures are what ssh, the
// remote server and the UI add, not a network's round trip. Reported: each series'
// p50 and p90 in ms, corral-ssh's p50 over ssh-tmux's, and corral-fleet's over
// corral-ssh's.

// BenchmarkTypedEchoSSH is key → child → frame over ssh: a token typed into the outer
// terminal until it shows there, with cat as the program (BenchmarkTypedEcho's
// sample: each line then ended, untimed).
func BenchmarkTypedEchoSSH(b *testing.B) {
	series := sshSeries(b, func(string) string { return "cat" })
	interleave(b, series, (*echoSeries).sample)
	reportSSH(b, series)
}

// BenchmarkOutputSSH is byte → frame over ssh: the program prints a token at a known
// time. It is `while cat FIFO; do :; done`, a FIFO of each series' own: the clock
// starts at the write of the token into the FIFO (opened for writing beforehand,
// untimed, once the program's cat has it open) and stops when the outer terminal
// shows it.
func BenchmarkOutputSSH(b *testing.B) {
	dir := b.TempDir()
	fifos := map[string]string{}
	series := sshSeries(b, func(name string) string {
		fifo := filepath.Join(dir, name+".fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			b.Fatal(err)
		}
		fifos[name] = fifo
		// Ends when cat fails (killed, or the FIFO gone): never a loop of failing cats.
		return fmt.Sprintf("while cat %s; do :; done", fifo)
	})
	interleave(b, series, func(s *echoSeries, b *testing.B, token string, rng *rand.Rand) {
		b.StopTimer()
		pause(rng)
		w := openWriter(b, fifos[s.name])
		b.StartTimer()
		t0 := time.Now()
		_, err := w.Write([]byte(token + "\n"))
		w.Close()
		if err != nil {
			b.Fatalf("%s: write %s: %v", s.name, fifos[s.name], err)
		}
		s.shows(b, token, t0)
	})
	reportSSH(b, series)
}

// sshSeries starts alpha and the four series' outer terminals, each running the shell
// line program(series name) (see above), ready to measure: the program's screen shown
// and, in Corral, its run focused.
func sshSeries(b *testing.B, program func(name string) string) []*echoSeries {
	fleet := sshtest.Start(b, "alpha")
	alpha := fleet.Host("alpha")
	cfg := hostsConfig(b, "alpha")
	sock := remoteTmux(b, program("ssh-tmux"))
	for _, name := range []string{"corral-ssh", "corral-fleet"} {
		if r := serverCorral(b, alpha.StateDir, "spawn", "--pty", "--name", name, "--shell", "--", program(name)); r.code != 0 {
			b.Fatalf("spawn %s on alpha: %+v", name, r)
		}
	}
	attach := func(args string) string {
		return fmt.Sprintf("env CORRAL_SSH='%s' CORRAL_CONFIG=%s CORRAL_STATE_DIR=%s %s attach %s",
			fleet.SSH, cfg, serverState(b), corralBin, args)
	}
	remote := startTmux(b, 186, 51, fmt.Sprintf("%s -t alpha tmux -S %s attach", fleet.SSH, sock))
	one := startTmux(b, 186, 51, attach("--ssh alpha"))
	several := startTmux(b, 186, 51, attach("--ssh local --ssh alpha"))
	floor := startTmux(b, 186, 51, program("tmux"))
	remote.waitFor(`\[far\] 0:`, 30*time.Second) // the remote tmux's status line
	one.focusRun("corral-ssh", `corral-ssh\s+pty\s+running`)
	several.focusRun("corral-fleet", `local · connected[\s\S]*alpha · connected[\s\S]*corral-fleet\s+pty\s+running`)
	return []*echoSeries{
		{name: "tmux", term: floor},
		{name: "ssh-tmux", term: remote},
		{name: "corral-ssh", term: one},
		{name: "corral-fleet", term: several},
	}
}

// focusRun waits until the UI's screen matches listed, selects the run named name with
// the list's filter and focuses it.
func (x *tmuxTerm) focusRun(name, listed string) {
	x.t.Helper()
	x.waitFor(listed, 30*time.Second)
	x.selectRun(name)
	x.keys("Enter")
	x.waitFor(`FOCUS`, 10*time.Second)
}

// remoteTmux starts the tmux server "on alpha" (this machine, as alpha's sshd is) on a
// socket of its own in a temporary directory, its one session (far) running the shell
// line program at 186×51; the server is killed by its socket when the benchmark ends.
// It returns the socket's path.
func remoteTmux(b *testing.B, program string) string {
	b.Helper()
	dir, err := os.MkdirTemp("", "ctmux") // short, as a socket path must be
	if err != nil {
		b.Fatal(err)
	}
	sock := filepath.Join(dir, "far")
	tmux := func(args ...string) *exec.Cmd { return exec.Command("tmux", append([]string{"-S", sock}, args...)...) }
	if out, err := tmux("-f", "/dev/null", "new-session", "-d", "-s", "far", "-x", "186", "-y", "51", program).CombinedOutput(); err != nil {
		b.Fatalf("remote tmux: %v: %s", err, out)
	}
	b.Cleanup(func() {
		tmux("kill-server").Run()
		os.RemoveAll(dir)
	})
	return sock
}

// openWriter opens fifo for writing once its reader has it open: without blocking
// (O_NONBLOCK fails with ENXIO while no reader is there), tried again until a
// deadline.
func openWriter(b *testing.B, fifo string) *os.File {
	b.Helper()
	var err error
	w, ok := eventually.Within(10*time.Second, func() (*os.File, bool) {
		var f *os.File
		f, err = os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		return f, err == nil || !errors.Is(err, syscall.ENXIO)
	})
	if !ok || err != nil {
		b.Fatalf("open %s for writing (its reader there?): %v", fifo, err)
	}
	return w
}

// reportSSH reports every series' p50 and p90, corral-ssh's p50 over ssh-tmux's and
// corral-fleet's over corral-ssh's.
func reportSSH(b *testing.B, series []*echoSeries) {
	reportSeries(b, series)
	p50 := map[string]float64{}
	for _, s := range series {
		p50[s.name] = s.at(0.5)
	}
	b.ReportMetric(p50["corral-ssh"]-p50["ssh-tmux"], "corral-ssh-over-ssh-tmux-p50-ms")
	b.ReportMetric(p50["corral-fleet"]-p50["corral-ssh"], "fleet-over-ssh-p50-ms")
}

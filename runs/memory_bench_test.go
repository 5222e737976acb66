//go:build linux

package runs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"corral/config"
	"corral/ptyhost/screen"
)

// BenchmarkIdleRunMemory measures what an idle PTY run costs Corral in memory: 200
// runs of `cat` (it blocks reading its terminal and prints nothing, so every
// transcript stays empty) on 120×40 PTYs, with screens, a registry and a log dir as
// the UI has them. rss-MB is this process's resident set with all 200 running (the
// children are not counted: they are the user's programs), rss-KB/run its growth
// over the supervisor alone, heap-KB/run the Go heap's, and screen-KB one
// screen.Screen's that was written to (vt10x allocates two cols×rows grids of 16-byte
// cells as the first write brings it up; the idle runs' screens, blank, hold none). They are
// taken once, before the loop, so run it in a fresh process (-benchtime 1x) for an
// honest RSS; the loop times a Snapshot of the 200 runs, which the UI takes every
// second.
func BenchmarkIdleRunMemory(b *testing.B) {
	const n = 200
	dir := b.TempDir()
	d := config.Default()
	reg, err := OpenRegistry(filepath.Join(dir, "state"), d)
	if err != nil {
		b.Fatal(err)
	}
	defer reg.Close()
	s, err := New(WithDefaults(d), WithRegistry(reg), WithScreens(), WithLogDir(filepath.Join(dir, "logs")))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	rss0, heap0 := memNow()
	ids := make([]string, 0, n)
	for range n {
		id, err := s.Spawn(Spec{Argv: []string{"cat"}, PTY: true, Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		if info, _ := s.Info(id); info.State != Running {
			b.Fatalf("run %s is %s", id, info.State)
		}
	}
	rss1, heap1 := memNow()
	screen := screenBytes()
	for b.Loop() {
		if len(s.Snapshot()) != n {
			b.Fatal("runs missing")
		}
	}
	b.ReportMetric(float64(rss1)/(1<<20), "rss-MB")
	b.ReportMetric(float64(rss1-rss0)/n/1024, "rss-KB/run")
	b.ReportMetric(float64(heap1-heap0)/n/1024, "heap-KB/run")
	b.ReportMetric(float64(screen)/1024, "screen-KB")
}

// memNow is this process's resident set (VmRSS) and Go heap in use, after a GC.
func memNow() (rss, heap uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, m.HeapInuse
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:")); ok {
			kb, _ := strconv.ParseUint(string(bytes.Fields(v)[0]), 10, 64)
			rss = kb << 10
		}
	}
	return rss, m.HeapInuse
}

// screenBytes is the heap one 120×40 Screen takes once something was written to it
// (a blank one holds no cells).
func screenBytes() uint64 {
	const k = 20
	keep := make([]*screen.Screen, k)
	_, h0 := memNow()
	for i := range keep {
		keep[i] = screen.NewScreen(120, 40)
		keep[i].Write([]byte("x"))
	}
	_, h1 := memNow()
	runtime.KeepAlive(keep)
	return (h1 - h0) / k
}

// BenchmarkThousandIdleRuns measures what a thousand idle PTY runs cost the process
// that holds them, as the server holds them: `sh -c 'sleep 100000'` on 80×24 PTYs,
// with screens, recordings, a registry and a log dir. rss-KB/run is the resident set's
// growth per run over the supervisor alone, heap-KB/run the Go heap's, threads the
// process's threads with all of them live (a thread per run would be a thousand),
// goroutines/run what each adds. Where tmux is installed the same thousand windows
// are opened on a tmux server of its own, side by side in the same run:
// tmux-rss-KB/run is its server's growth per window. Taken once, before the loop (run
// it in a fresh process, -benchtime 1x); the loop times a Snapshot of all of them.
func BenchmarkThousandIdleRuns(b *testing.B) {
	const n = 1000
	dir := b.TempDir()
	d := config.Default()
	reg, err := OpenRegistry(filepath.Join(dir, "state"), d)
	if err != nil {
		b.Fatal(err)
	}
	defer reg.Close()
	s, err := New(WithDefaults(d), WithRegistry(reg), WithScreens(), WithLogDir(filepath.Join(dir, "logs")))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	rss0, heap0 := memNow()
	g0 := runtime.NumGoroutine()
	ids := make([]string, 0, n)
	for range n {
		id, err := s.Spawn(Spec{Argv: []string{"sh", "-c", "sleep 100000"}, PTY: true, Cols: 80, Rows: 24})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		if info, _ := s.Info(id); info.State != Running {
			b.Fatalf("run %s is %s", id, info.State)
		}
	}
	rss1, heap1 := memNow()
	g1 := runtime.NumGoroutine()
	th := threads(b)
	tmuxPerRun, tmuxErr := tmuxIdleWindows(b, n)
	for b.Loop() {
		if len(s.Snapshot()) != n {
			b.Fatal("runs missing")
		}
	}
	b.ReportMetric(float64(rss1-rss0)/n/1024, "rss-KB/run")
	b.ReportMetric(float64(heap1-heap0)/n/1024, "heap-KB/run")
	b.ReportMetric(float64(th), "threads")
	b.ReportMetric(float64(g1-g0)/n, "goroutines/run")
	if tmuxErr != nil {
		b.Logf("no tmux figure: %v", tmuxErr)
		return
	}
	b.ReportMetric(tmuxPerRun, "tmux-rss-KB/run")
}

// tmuxIdleWindows opens n windows of `sh -c 'sleep 100000'` (80×24) on a tmux server
// of its own and returns the server's RSS growth per window, in KB; the server is
// killed before it returns.
func tmuxIdleWindows(b *testing.B, n int) (float64, error) {
	if _, err := exec.LookPath("tmux"); err != nil {
		return 0, err
	}
	sock := filepath.Join(b.TempDir(), "tmux.sock")
	tm := func(args ...string) ([]byte, error) {
		return exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).Output()
	}
	const idle = "sh -c 'sleep 100000'"
	if _, err := tm("new-session", "-d", "-x", "80", "-y", "24", idle); err != nil {
		return 0, fmt.Errorf("tmux new-session: %w", err)
	}
	defer tm("kill-server")
	out, err := tm("display", "-p", "#{pid}")
	if err != nil {
		return 0, fmt.Errorf("tmux display: %w", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("tmux pid %q: %w", out, err)
	}
	rss0, err := rssOf(pid)
	if err != nil {
		return 0, err
	}
	for range n - 1 {
		if _, err := tm("new-window", "-d", idle); err != nil {
			return 0, fmt.Errorf("tmux new-window: %w", err)
		}
	}
	rss1, err := rssOf(pid)
	if err != nil {
		return 0, err
	}
	return float64(rss1-rss0) / float64(n-1) / 1024, nil
}

// rssOf is the resident set (VmRSS) of process pid, in bytes.
func rssOf(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.Fields(v)[0], 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}

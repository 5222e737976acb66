//go:build linux

package runs

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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
// screen.Screen's (vt10x allocates two cols×rows grids of 16-byte cells). They are
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

// screenBytes is the heap one 120×40 Screen takes.
func screenBytes() uint64 {
	const k = 20
	keep := make([]*screen.Screen, k)
	_, h0 := memNow()
	for i := range keep {
		keep[i] = screen.NewScreen(120, 40)
	}
	_, h1 := memNow()
	runtime.KeepAlive(keep)
	return (h1 - h0) / k
}

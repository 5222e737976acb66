//go:build linux

package ui

import (
	"fmt"
	"strconv"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/demo"
	"corral/ptyhost/screen"
	"corral/runs"
)

// BenchmarkStreaming: ten PTY runs each printing 100 KB/s of coloured log lines (demo
// "stream"), watched by a live Model; each iteration is one second of it, after a 2 s
// warm-up. The UI shows one terminal pane; to stand for four visible panes, every
// frame also renders three more runs' screens when their version moved, as the pane
// does. cpu-pct is this process's user+system CPU over all the iterations, in
// percent of one engine: the supervisor, the screens, Bridge and the Model (Bubble
// Tea's terminal writes and the children themselves not included). MB/s is the
// output actually taken in.
func BenchmarkStreaming(b *testing.B) {
	const n, rate = 10, 100_000
	c := newLiveEngine(b, 16<<20)
	defer c.close()
	var ids []string
	for i := range n {
		argv, env := demo.Child("stream", strconv.Itoa(rate))
		id, err := c.sup.Spawn(runs.Spec{Name: fmt.Sprintf("stream-%d", i), Argv: argv, Env: env,
			PTY: true, Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	extra := make([]*screen.Screen, 3)
	for i := range extra {
		extra[i], _ = c.sup.Screen(ids[n-1-i])
	}
	shown := make([]uint64, len(extra))
	c.attach(b, func(Model, tea.View) {
		for i, s := range extra {
			if v := s.Version(); v != shown[i] {
				shown[i] = v
				_ = s.Render()
			}
		}
	})
	time.Sleep(2 * time.Second) // warm-up: children started, screens full
	in0, cpu0, t0 := taken(c.sup, ids), cpuTime(), time.Now()
	for b.Loop() {
		time.Sleep(time.Second)
	}
	in1, cpu1, wall := taken(c.sup, ids), cpuTime(), time.Since(t0)
	b.ReportMetric(100*float64(cpu1-cpu0)/float64(wall), "cpu-pct")
	b.ReportMetric(float64(in1-in0)/wall.Seconds()/1e6, "MB/s")
}

// taken is the output bytes the runs have produced so far.
func taken(s *runs.Supervisor, ids []string) int64 {
	var total int64
	for _, id := range ids {
		o, err := s.Log(id)
		if err == nil {
			total += o.Total
		}
	}
	return total
}

// cpuTime is this process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

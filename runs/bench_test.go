package runs

import (
	"context"
	"slices"
	"testing"
	"time"

	"corral/config"
	"corral/reaper"
)

// backends are the ownership backends a benchmark compares side by side: sessions,
// and cgroups where Corral can make them.
func backends() []struct {
	name string
	opt  Option
} {
	out := []struct {
		name string
		opt  Option
	}{{"sessions", WithCgroups(reaper.CgroupBase{Reason: "sessions: benchmark"})}}
	if base := FindCgroups(""); base.Dir != "" {
		out = append(out, struct {
			name string
			opt  Option
		}{"cgroup", WithCgroups(base)})
	}
	return out
}

func benchSup(b *testing.B, d config.Defaults, opts ...Option) *Supervisor {
	s, err := New(append([]Option{WithDefaults(d)}, opts...)...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Shutdown(context.Background()) })
	return s
}

// BenchmarkSpawnToRunning measures Spawn returning with the run in running: process
// start, fingerprint, and — in the registry variants — the durable record commit that
// must precede running. Each run is cancelled outside the timer.
func BenchmarkSpawnToRunning(b *testing.B) {
	for _, c := range []struct {
		name     string
		pty, reg bool
	}{{"pty", true, false}, {"pipe", false, false}, {"pty+registry", true, true}, {"pipe+registry", false, true}} {
		for _, be := range backends() {
			b.Run(c.name+"/"+be.name, func(b *testing.B) { benchSpawn(b, c.pty, c.reg, be.opt) })
		}
	}
}

// benchSpawn is one case of BenchmarkSpawnToRunning on one backend.
func benchSpawn(b *testing.B, pty, withRegistry bool, backend Option) {
	opts := []Option{backend}
	if withRegistry {
		reg, err := OpenRegistry(b.TempDir(), config.Default())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { reg.Close() })
		opts = append(opts, WithRegistry(reg))
	}
	s := benchSup(b, config.Default(), opts...)
	spec := childSpec(pty, "sleep")
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		id, err := s.Spawn(spec)
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		s.Cancel(id)
		s.Wait(context.Background(), id)
		b.StartTimer()
	}
	reportPercentiles(b, lat)
}

// BenchmarkCancelTree100 measures Cancel to verified empty (Wait returning) for a run
// of 100 processes that obey SIGTERM, and for one that ignores it (reported as the
// overhead beyond the grace). The trees are 100 copies of this Go test binary; shell-tree
// is the same cancel of a shell with 99 background sleeps, the tree most runs are, where
// the kernel's teardown of 100 Go runtimes (their threads and address spaces) is not
// most of the figure. Without a subreaper reaping them, the orphaned members of every
// cancel piled up as zombies of init here (1,500 after 20 cancels), and each /proc scan
// of the next cancel read them all.
func BenchmarkCancelTree100(b *testing.B) {
	const shellTree = `i=0; while [ $i -lt 99 ]; do sleep 1000 & i=$((i+1)); done; echo fanout ready; wait`
	for _, c := range []struct {
		name   string
		spec   Spec
		ignore bool
	}{
		{"obeys-term", childSpec(false, "fanout", "100"), false},
		{"ignores-term", childSpec(false, "fanout", "100", "ignore-term"), true},
		{"shell-tree", Spec{Shell: shellTree}, false},
	} {
		for _, be := range backends() {
			b.Run(c.name+"/"+be.name, func(b *testing.B) { benchCancel(b, c.spec, c.ignore, be.opt) })
		}
	}
}

// benchCancel is one case of BenchmarkCancelTree100 on one backend.
func benchCancel(b *testing.B, spec Spec, ignore bool, backend Option) {
	d := config.Default()
	d.Grace = 200 * time.Millisecond
	// As corral runs it: a subreaper with escape detection, so the cancel pays for the
	// last escape scan (sessions) and reaps the members reparented to it.
	s := benchSup(b, d, WithEscapeDetection(), backend)
	var lat []time.Duration
	for b.Loop() {
		b.StopTimer()
		id, err := s.Spawn(spec)
		if err != nil {
			b.Fatal(err)
		}
		waitFanout(b, s, id)
		b.StartTimer()
		t0 := time.Now()
		s.Cancel(id)
		info, _ := s.Wait(context.Background(), id)
		el := time.Since(t0)
		if ignore {
			el -= d.Grace
		}
		lat = append(lat, el)
		if info.Cleanup.Killed != 100 || !info.Cleanup.VerifiedEmpty {
			b.Fatalf("cleanup %+v", info.Cleanup)
		}
	}
	reportPercentiles(b, lat)
}

func waitFanout(b *testing.B, s *Supervisor, id string) {
	_, sub := s.Subscribe()
	defer sub.Close()
	deadline := time.After(60 * time.Second)
	for {
		if out, _ := s.Log(id); slices.Contains(splitLines(out.Bytes()), "fanout ready") {
			return
		}
		select {
		case <-sub.C:
		case <-deadline:
			b.Fatal("fanout never ready")
		}
	}
}

func splitLines(b []byte) []string {
	var out []string
	start := 0
	for i, c := range b {
		if c == '\n' {
			out = append(out, string(b[start:i]))
			start = i + 1
		}
	}
	return out
}

// reportPercentiles adds p50/p95/p99 in milliseconds to the benchmark's output.
func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

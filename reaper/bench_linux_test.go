package reaper

import (
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// BenchmarkTerminateTree100 times cancel → verified empty for 100 processes that obey
// SIGTERM (one root plus 99 children in its session). Starting the tree is not timed.
func BenchmarkTerminateTree100(b *testing.B) {
	benchTerminate(b, 0, "fanout", "100")
}

// BenchmarkTerminateTree100IgnoreTerm: the same tree ignoring SIGTERM, grace 100 ms;
// overhead-ms is the time beyond the grace.
func BenchmarkTerminateTree100IgnoreTerm(b *testing.B) {
	benchTerminate(b, 100*time.Millisecond, "fanout", "100", "ignore-term")
}

func benchTerminate(b *testing.B, grace time.Duration, mode string, args ...string) {
	var elapsed []time.Duration
	for b.Loop() {
		b.StopTimer()
		c := start(b, mode, args...)
		c.line("fanout ready")
		c.learnSession()
		if len(c.known) != 100 {
			b.Fatalf("%d processes, want 100", len(c.known))
		}
		tg := target(c.pid())
		if grace > 0 {
			tg.Grace = grace
		}
		b.StartTimer()
		rep := Terminate(b.Context(), tg)
		b.StopTimer()
		if !rep.VerifiedEmpty || rep.Killed != 100 {
			b.Fatalf("report %+v", rep)
		}
		elapsed = append(elapsed, rep.Elapsed)
		c.requireGone()
		c.finish()
		b.StartTimer()
	}
	reportLatency(b, elapsed, grace)
}

// reportLatency reports p50, p95 and max of the measured escalations, minus the grace.
func reportLatency(b *testing.B, d []time.Duration, grace time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	ms := func(x time.Duration) float64 { return float64(x-grace) / float64(time.Millisecond) }
	prefix := ""
	if grace > 0 {
		prefix = "overhead-"
	}
	b.ReportMetric(ms(d[len(d)/2]), prefix+"p50-ms")
	b.ReportMetric(ms(d[(len(d)*95+99)/100-1]), prefix+"p95-ms")
	b.ReportMetric(ms(d[len(d)-1]), prefix+"max-ms")
}

func BenchmarkListAll(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		all, err := ListAll()
		if err != nil {
			b.Fatal(err)
		}
		n = len(all)
	}
	b.ReportMetric(float64(n), "procs")
}

// BenchmarkSession scans for the members of a 100-process session.
func BenchmarkSession(b *testing.B) {
	c := start(b, "fanout", "100")
	c.line("fanout ready")
	c.learnSession()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		members, err := Session(c.pid())
		if err != nil || len(members) != 100 {
			b.Fatalf("%d members, %v", len(members), err)
		}
	}
	b.StopTimer()
	Terminate(b.Context(), target(c.pid()))
	c.wait()
	c.requireGone()
}

// BenchmarkTree50x10 times what the details pane costs per refresh with 50 live runs:
// one ListAll shared by all of them, then Tree for each run's 10-process session.
// Budget: under 20 ms per op.
func BenchmarkTree50x10(b *testing.B) {
	const runs, size = 50, 10
	cs := make([]*child, runs)
	for i := range cs {
		cs[i] = start(b, "fanout", strconv.Itoa(size))
	}
	for _, c := range cs {
		c.line("fanout ready")
		c.learnSession()
		if len(c.known) != size {
			b.Fatalf("%d processes in session %d, want %d", len(c.known), c.pid(), size)
		}
	}
	procs := 0
	for b.Loop() {
		all, err := ListAll()
		if err != nil {
			b.Fatal(err)
		}
		procs = len(all)
		for _, c := range cs {
			if tr := Tree(all, c.pid(), nil); len(tr) != size || tr[0].PID != c.pid() {
				b.Fatalf("tree of %d: %d processes", c.pid(), len(tr))
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(time.Millisecond), "ms/op")
	b.ReportMetric(float64(procs), "procs")
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Go(func() {
			if rep := Terminate(b.Context(), target(c.pid())); !rep.VerifiedEmpty {
				b.Errorf("session %d: %+v", c.pid(), rep)
			}
		})
	}
	wg.Wait()
	for _, c := range cs {
		c.wait()
		c.requireGone()
	}
}

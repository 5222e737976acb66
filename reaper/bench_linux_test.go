package reaper

import (
	"slices"
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

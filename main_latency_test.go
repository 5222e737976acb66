//go:build linux

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/ptyhost/hoptrace"
)

// BenchmarkTypedEcho is the latency a person feels: a token typed into the
// outer terminal until it is visible there, with cat as the program. tmux 3.3a is the
// outer terminal: the clock starts before `send-keys -l TOKEN` and stops when a
// `capture-pane` shows the token, polled back to back. The series are measured side by
// side, one sample of each in turn (the order shuffled every round: interleave), so a
// busy neighbour hits them alike:
//
//   - tmux: a bare tmux pane running cat;
//   - corral: `corral -- cat` in a tmux pane (a server of its own in a private state
//     dir, the UI attached to it), the run focused;
//   - local: `corral --local -- cat`, the run in the UI's process, focused;
//   - before, before-local: the two with the binary at $CORRAL_BENCH_BEFORE, when set
//     (a build of another commit, for a before/after in the same run).
//
// b.N is the number of samples per series (80 in .ci/bench). Between samples the line
// is ended (Enter, untimed: cat prints it back) and a pause of 20–80 ms is left, so
// tokens land at every phase of Bubble Tea's 60 Hz renderer. Reported: each series'
// p50 and p90 in ms, and corral's p50 over tmux's. With CORRAL_BENCH_TRACE=DIR the
// Corral series' processes trace their hops (package ptyhost/hoptrace) and each
// series' time is reported by part and by hop (echoSeries.hops).
func BenchmarkTypedEcho(b *testing.B) {
	trace := os.Getenv("CORRAL_BENCH_TRACE")
	series := []*echoSeries{
		{name: "tmux", term: startTmux(b, 186, 51, "cat")},
		traced(b, trace, "corral", corralBin, ""),
		traced(b, trace, "local", corralBin, "--local"),
	}
	if before := os.Getenv("CORRAL_BENCH_BEFORE"); before != "" {
		series = append(series, traced(b, trace, "before", before, ""), traced(b, trace, "before-local", before, "--local"))
	}
	interleave(b, series, (*echoSeries).sample)
	reportSeries(b, series)
	b.ReportMetric(series[1].at(0.5)-series[0].at(0.5), "corral-over-tmux-p50-ms")
	for _, s := range series {
		if s.trace != "" {
			s.hops(b)
		}
	}
}

// traced is corralCat as series name, its processes tracing their hops into a
// directory of their own under dir (package ptyhost/hoptrace) when dir is set
// (CORRAL_BENCH_TRACE).
func traced(b *testing.B, dir, name, bin, flag string) *echoSeries {
	if dir == "" {
		return &echoSeries{name: name, term: corralCat(b, bin, flag)}
	}
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		b.Fatal(err)
	}
	return &echoSeries{name: name, trace: d, term: corralCat(b, "env "+hoptrace.Env+"="+d+" "+bin, flag)}
}

// interleave takes b.N samples of every series side by side: one sample of each in
// turn, so a busy neighbour hits them alike, in an order shuffled every round. Not
// rotated: a rotation always puts the same series right after another, which may gain
// from the processes the one before it woke (over ssh, swapping two Corral series'
// places moved their difference by about 3 ms at p50). Each sample's token is unique.
func interleave(b *testing.B, series []*echoSeries, sample func(s *echoSeries, b *testing.B, token string, rng *rand.Rand)) {
	rng := rand.New(rand.NewPCG(21, 3))
	n := 0
	for b.Loop() {
		for k, i := range rng.Perm(len(series)) {
			sample(series[i], b, fmt.Sprintf("k%dq%dz", n, k), rng)
		}
		n++
	}
}

// reportSeries reports each series' p50 and p90 in ms.
func reportSeries(b *testing.B, series []*echoSeries) {
	for _, s := range series {
		b.ReportMetric(s.at(0.5), s.name+"-p50-ms")
		b.ReportMetric(s.at(0.9), s.name+"-p90-ms")
	}
}

// echoSeries is one outer terminal whose program echoes what is typed.
type echoSeries struct {
	name  string
	term  *tmuxTerm
	lat   []time.Duration
	trace string       // the directory its processes trace their hops into, if any
	marks []echoSample // each sample's token and times, when traced
}

// echoSample is one sample's token, when it was typed and when it showed.
type echoSample struct {
	token  string
	t0, t1 time.Time
}

// corralCat is `bin [flag] -- cat` in a tmux window, with a state dir of its own (a
// server it starts there is shut down when the benchmark ends), the run focused.
func corralCat(b *testing.B, bin, flag string) *tmuxTerm {
	state := serverState(b)
	x := startTmux(b, 186, 51, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s %s -- cat", state, bin, flag))
	x.waitFor(`cat\s+pty\s+running`, 20*time.Second)
	x.keys("Enter")
	x.waitFor(`FOCUS`, 10*time.Second)
	return x
}

// sample times one token from send-keys to the capture that shows it, then ends the
// line and waits, untimed, until cat has printed it back.
func (s *echoSeries) sample(b *testing.B, token string, rng *rand.Rand) {
	x := s.term
	b.StopTimer()
	pause(rng)
	b.StartTimer()
	t0 := time.Now()
	x.run("send-keys", "-t", "t", "-l", token)
	s.shows(b, token, t0)
	b.StopTimer()
	x.run("send-keys", "-t", "t", "Enter")
	x.waitUntil("the line printed back", 10*time.Second, func(screen string) bool {
		return strings.Count(screen, token) >= 2
	})
	b.StartTimer()
}

// pause leaves 20–80 ms between samples, so tokens land at every phase of Bubble
// Tea's 60 Hz renderer. The pause is modelled, not awaited.
func pause(rng *rand.Rand) { time.Sleep(time.Duration(20+rng.IntN(60)) * time.Millisecond) }

// shows polls the outer terminal back to back (each capture is a tmux client) until
// token is on its screen, and notes the time since t0 as a sample.
func (s *echoSeries) shows(b *testing.B, token string, t0 time.Time) {
	x := s.term
	for !strings.Contains(x.screen(), token) {
		if time.Since(t0) > 10*time.Second {
			b.Fatalf("%s: %q never showed:\n%s", s.name, token, x.screen())
		}
	}
	t1 := time.Now()
	s.lat = append(s.lat, t1.Sub(t0))
	if s.trace != "" {
		s.marks = append(s.marks, echoSample{token, t0, t1})
	}
}

// at is the p quantile of the series' latencies, in ms.
func (s *echoSeries) at(p float64) float64 {
	l := slices.Clone(s.lat)
	slices.Sort(l)
	return float64(l[int(p*float64(len(l)-1))]) / float64(time.Millisecond)
}

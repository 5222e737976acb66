//go:build linux

package ui

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

	"corral/demo"
	"corral/runs"
)

// BenchmarkLatency measures the two interactive latencies (key, echo) through the
// whole pipeline (a live Model, Bridge, Supervisor, PTY), one key per iteration, with
// 20–60 ms between keys as a fast typist leaves (the pause is not timed):
//
//   - key-ms: from the KeyPressMsg entering the event loop (where Bubble Tea hands
//     it over, terminal input parsing not included) to the child's read(2)
//     returning the byte: Update, the write command, Supervisor.Write, the input
//     queue and its writer goroutine, the PTY.
//   - echo-ms: from just before the child's write(2) of its echo to the end of the
//     first View whose content shows it: the PTY, the reader, the screen, the
//     output event, Bridge, Update and View (Bubble Tea's terminal write not
//     included).
//
// The child (demo "latency") takes both of its times from CLOCK_MONOTONIC, which
// every process of the machine shares, and so does the benchmark.
func BenchmarkLatency(b *testing.B) { benchLatency(b, false) }

// BenchmarkLatencyRemote is BenchmarkLatency through a server's socket (corral
// attach): keys go over the socket to the server, the echo comes back as a frame.
func BenchmarkLatencyRemote(b *testing.B) { benchLatency(b, true) }

func benchLatency(b *testing.B, remote bool) {
	file := filepath.Join(b.TempDir(), "latency.log")
	c := newLiveEngine(b, 16<<20)
	defer c.close()
	w := &frameWaiter{}
	l := c.attachVia(b, w.onFrame, remote)
	argv, env := demo.Child("latency", file)
	if _, err := c.sup.Spawn(runs.Spec{Name: "latency", Argv: argv, Env: env, PTY: true, Cols: 120, Rows: 40}); err != nil {
		b.Fatal(err)
	}
	w.await(b, "latency ready")
	l.send(keyMsg("enter")) // focus: keys go to the run
	l.do(func(m Model) {
		if m.mode != modeFocus {
			b.Fatal("the terminal pane did not take the focus")
		}
	})
	var sent, shown []int64
	rng := rand.New(rand.NewPCG(6, 6))
	for b.Loop() {
		b.StopTimer()
		time.Sleep(time.Duration(20+rng.IntN(40)) * time.Millisecond)
		w.expect(fmt.Sprintf("key %d;", len(sent)))
		b.StartTimer()
		sent = append(sent, monotonicNS())
		l.send(tea.KeyPressMsg{Code: 'x', Text: "x"})
		shown = append(shown, w.wait(b))
	}
	keyLat, echoLat := latencies(b, file, sent, shown)
	reportPercentile(b, "key", keyLat)
	reportPercentile(b, "echo", echoLat)
}

// frameWaiter lets the benchmark wait, with a deadline, for the first frame whose
// content holds a string (or, with inPane, whose terminal pane shows it as a line,
// however wrapped), and tells when that frame was finished.
type frameWaiter struct {
	mu     sync.Mutex
	want   string
	inPane bool
	at     chan int64
}

func (w *frameWaiter) expect(s string) {
	w.mu.Lock()
	w.want, w.at = s, make(chan int64, 1)
	w.mu.Unlock()
}

func (w *frameWaiter) onFrame(_ Model, v tea.View) {
	done := monotonicNS()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.want != "" && (strings.Contains(v.Content, w.want) || w.inPane && paneShows(v.Content, w.want)) {
		w.at <- done
		w.want = ""
	}
}

func (w *frameWaiter) wait(b *testing.B) int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w.mu.Lock()
	at := w.at
	w.mu.Unlock()
	select {
	case t := <-at:
		return t
	case <-ctx.Done():
		b.Fatalf("no frame showed %q", w.want)
		return 0
	}
}

func (w *frameWaiter) await(b *testing.B, s string) {
	w.expect(s)
	w.wait(b)
}

// latencies joins the child's log ("N read-ns echo-ns") with the benchmark's times.
func latencies(b *testing.B, file string, sent, shown []int64) (keyLat, echoLat []time.Duration) {
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var n int
		var read, echo int64
		if _, err := fmt.Sscan(sc.Text(), &n, &read, &echo); err != nil || n >= len(sent) {
			b.Fatalf("child log line %q: %v", sc.Text(), err)
		}
		keyLat = append(keyLat, time.Duration(read-sent[n]))
		echoLat = append(echoLat, time.Duration(shown[n]-echo))
	}
	if len(keyLat) != len(sent) {
		b.Fatalf("child read %d keys of %d", len(keyLat), len(sent))
	}
	return keyLat, echoLat
}

// reportPercentile reports p50, p95 and p99 of lat in ms as name-p50-ms, ….
func reportPercentile(b *testing.B, name string, lat []time.Duration) {
	s := slices.Clone(lat)
	slices.Sort(s)
	at := func(p float64) float64 {
		return float64(s[int(p*float64(len(s)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), name+"-p50-ms")
	b.ReportMetric(at(0.95), name+"-p95-ms")
	b.ReportMetric(at(0.99), name+"-p99-ms")
}

// monotonicNS reads CLOCK_MONOTONIC, the clock the latency child logs with.
func monotonicNS() int64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return ts.Nano()
}

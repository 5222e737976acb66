//go:build linux

package ui

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"

	"corral/ptyhost"
	"corral/runs"
)

// The flood: a PTY run cats a large text file. CORRAL_BENCH_FLOOD_FILE names
// the file (.ci/bench makes a 100 MB one, the same tmux is given); without it a 16 MB
// file of the same kind is made here. CORRAL_BENCH_SCREEN_OUT, if set, receives the
// final screen text, which .ci/bench compares with tmux's capture-pane.

// floodFile returns the file to cat and its size.
func floodFile(b *testing.B) (string, int64) {
	path := os.Getenv("CORRAL_BENCH_FLOOD_FILE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "flood.txt")
		if err := writeFloodText(path, 16<<20); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, st.Size()
}

// writeFloodText writes size bytes of numbered lines of words, 0 to 259 characters
// long, short ones the most common, so some lines are empty and some wrap at 120.
func writeFloodText(path string, size int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	words := strings.Fields("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore")
	rng := rand.New(rand.NewPCG(7, 7))
	var line []byte
	for n, i := 0, 0; n < size; i++ {
		want := int(rng.Float64() * rng.Float64() * 260)
		line = strconv.AppendInt(line[:0], int64(i), 10)
		for len(line) < want {
			line = append(append(line, ' '), words[rng.IntN(len(words))]...)
		}
		line = append(line[:min(len(line), max(want, 1))], '\n')
		w.Write(line)
		n += len(line)
	}
	return errors.Join(w.Flush(), f.Close())
}

// BenchmarkFlood: spawn → verified exit of `cat FILE` on a 120×40 PTY with the whole
// pipeline on (registry, screen, transcript with a cap above the file size, asciicast,
// output events, Bridge), then the final frame rendered by the Model. flood-ms is
// that span; the final screen must show the file's last line.
func BenchmarkFlood(b *testing.B) {
	file, size := floodFile(b)
	last := lastLine(b, file)
	var spans []time.Duration
	var text string
	b.SetBytes(size)
	for b.Loop() {
		b.StopTimer()
		c := newLiveEngine(b, 1<<30)
		l := c.attach(b, nil)
		b.StartTimer()
		t0 := time.Now()
		id, err := c.sup.Spawn(runs.Spec{Name: "flood", Argv: []string{"cat", file}, PTY: true, Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		info, err := c.sup.Wait(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		var frame, shown string
		l.send(OutputMsg{IDs: []string{id}}) // what Bridge sends after the last read; not waited for
		l.do(func(m Model) { frame, shown = stripANSI(m.View().Content), m.term.ID() })
		spans = append(spans, time.Since(t0))
		b.StopTimer()
		scr, _ := c.sup.Screen(id)
		text = scr.Text()
		c.close()
		switch {
		case info.State != runs.Exited || info.ExitCode == nil || *info.ExitCode != 0 || !info.Cleanup.VerifiedEmpty:
			b.Fatalf("run ended %+v", info)
		case shown != id:
			b.Fatalf("the pane shows %q, not the flood run %q", shown, id)
		case !paneShows(frame, last):
			b.Fatalf("final frame does not show the last line %q:\n%s", last, frame)
		}
		b.StartTimer()
	}
	reportSpans(b, "flood", spans)
	writeEnv(b, "CORRAL_BENCH_SCREEN_OUT", []byte(text+"\n"))
}

// BenchmarkFloodRemote is BenchmarkFlood with the Model attached through a server's
// socket (corral attach): the span ends when the client's frame shows the file's last
// line, which comes as a frame rendered by the server.
func BenchmarkFloodRemote(b *testing.B) {
	file, size := floodFile(b)
	last := lastLine(b, file)
	var spans []time.Duration
	b.SetBytes(size)
	for b.Loop() {
		b.StopTimer()
		c := newLiveEngine(b, 1<<30)
		w := &frameWaiter{inPane: true}
		c.attachVia(b, w.onFrame, true)
		w.expect(last)
		b.StartTimer()
		t0 := time.Now()
		id, err := c.sup.Spawn(runs.Spec{Name: "flood", Argv: []string{"cat", file}, PTY: true, Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		info, err := c.sup.Wait(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		w.wait(b)
		spans = append(spans, time.Since(t0))
		b.StopTimer()
		c.close()
		if info.State != runs.Exited || info.ExitCode == nil || *info.ExitCode != 0 || !info.Cleanup.VerifiedEmpty {
			b.Fatalf("run ended %+v", info)
		}
		b.StartTimer()
	}
	reportSpans(b, "flood", spans)
}

// BenchmarkFloodBare is the floor: the same cat on a 120×40 PTY read by a plain loop
// (creack/pty, blocking reads into a 32 KiB buffer, bytes dropped), spawn to reaped.
func BenchmarkFloodBare(b *testing.B) {
	file, size := floodFile(b)
	var spans []time.Duration
	buf := make([]byte, 32<<10)
	b.SetBytes(size)
	for b.Loop() {
		t0 := time.Now()
		cmd := exec.Command("cat", file)
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		for {
			k, err := f.Read(buf)
			n += int64(k)
			if err != nil { // EIO once cat has exited and the slave is closed
				break
			}
		}
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		spans = append(spans, time.Since(t0))
		f.Close()
		if n < size {
			b.Fatalf("read %d of %d bytes", n, size)
		}
	}
	reportSpans(b, "flood", spans)
}

// lastLine is the last non-empty line of file.
func lastLine(b *testing.B, file string) string {
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	tail := make([]byte, min(st.Size(), 4096))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil && err != io.EOF {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(tail), "\n"), "\n")
	return strings.TrimRight(lines[len(lines)-1], " ")
}

// paneShows reports whether a frame's terminal pane (its rightmost box) shows line,
// wherever the pane wrapped it. The run's PTY takes the pane's width, which the layout
// decides, so the rows a long line wraps into are not known in advance: the pane's
// rows are read joined, as a wrapped line fills each row it continues from.
func paneShows(frame, line string) bool {
	var b strings.Builder
	for _, row := range strings.Split(stripANSI(frame), "\n") {
		i := strings.LastIndex(row, "││")
		if i < 0 {
			continue
		}
		row = strings.TrimRight(row[i+len("││"):], " ")
		b.WriteString(strings.TrimSuffix(row, "│"))
	}
	return strings.Contains(b.String(), line)
}

// reportSpans reports the median and the spread (min, max) of spans in ms.
func reportSpans(b *testing.B, name string, spans []time.Duration) {
	if len(spans) == 0 {
		return
	}
	s := slices.Clone(spans)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(s[len(s)/2]), name+"-ms")
	b.ReportMetric(ms(s[0]), name+"-min-ms")
	b.ReportMetric(ms(s[len(s)-1]), name+"-max-ms")
}

// BenchmarkFloodHost is the same cat through ptyhost's reader (non-blocking master,
// Go's poller) with a consumer that only counts: what the pipeline adds to the read
// loop is BenchmarkFlood minus this.
func BenchmarkFloodHost(b *testing.B) {
	file, size := floodFile(b)
	var spans []time.Duration
	b.SetBytes(size)
	for b.Loop() {
		t0 := time.Now()
		var n atomic.Int64
		cmd := exec.Command("cat", file)
		p, err := ptyhost.Start(cmd, ptyhost.Options{PTY: true, Cols: 120, Rows: 40,
			OnOutput: func(_ ptyhost.Stream, p []byte) { n.Add(int64(len(p))) }})
		if err != nil {
			b.Fatal(err)
		}
		<-p.OutputDone()
		cmd.Wait()
		p.Close()
		spans = append(spans, time.Since(t0))
		if n.Load() < size {
			b.Fatalf("read %d of %d bytes", n.Load(), size)
		}
	}
	reportSpans(b, "flood", spans)
}

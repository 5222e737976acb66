//go:build linux

package main

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hopOrder is the order of the hops a typed key and its echo take (package
// ptyhost/hoptrace names them where they are marked).
var hopOrder = []string{"ui.key", "ui.queue", "ui.send", "ui.sent", "srv.keys", "pty.write", "pty.read",
	"run.pub", "br.held", "srv.held", "srv.ev", "srv.frame", "cli.frame", "br.msg", "ui.out", "ui.view", "ui.still",
	"fr.skip", "fr.held", "fr.timer", "fr.draw", "echo"}

// hopEvent is one traced hop: when, which, with what, in which process.
type hopEvent struct {
	at     int64
	hop    string
	detail string
	proc   string
}

// hops reads the series' traces and reports where its samples' time went: the
// quantiles of each part of a sample (before the UI read the first key, Corral's own
// to the frame that completed the echo, that frame to the capture), how many samples a
// pacer or the frame budget held, and for the samples of median and of slowest own
// time (the middle fifth, the slowest tenth) each hop's first and last time after the
// first key until the echo was drawn (medians), and how many times it came. The
// slowest fifth's whole timelines, up to the capture, go to slow.txt in the trace
// directory.
func (s *echoSeries) hops(b *testing.B) {
	evs := readTraces(b, s.trace)
	if len(evs) == 0 {
		b.Logf("%s: no hops traced (a build without package hoptrace?)", s.name)
		return
	}
	var rows []hopSample
	for _, m := range s.marks {
		rows = append(rows, newHopSample(m, evs))
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%s: %d samples\n", s.name, len(rows))
	partsReport(&out, rows)
	slices.SortFunc(rows, func(a, b hopSample) int {
		x, _ := a.own()
		y, _ := b.own()
		return cmp.Compare(x, y)
	})
	n := len(rows)
	hopsReport(&out, "median (40-60%)", rows[n*4/10:max(n*6/10, n*4/10+1)])
	hopsReport(&out, "slowest 10%", rows[n*9/10:])
	b.Log(out.String())
	if err := os.WriteFile(filepath.Join(s.trace, "slow.txt"), []byte(timelines(rows[n*8/10:])), 0o644); err != nil {
		b.Error(err)
	}
}

// hopSample is one sample's hops: each hop's first and last time after send-keys
// (ms) and how many times it came, until the echo was drawn; and every event up to
// the capture.
type hopSample struct {
	token       string
	lat         time.Duration
	first, last map[string]float64
	n           map[string]int
	evs         []hopEvent
}

// newHopSample is sample m's hops among evs (in time order). A token ends in z
// (interleave): the first frame that writes a z completes its echo, the hop "echo".
func newHopSample(m echoSample, evs []hopEvent) hopSample {
	r := hopSample{token: m.token, lat: m.t1.Sub(m.t0), first: map[string]float64{}, last: map[string]float64{}, n: map[string]int{}}
	i, _ := slices.BinarySearchFunc(evs, m.t0.UnixNano(), func(e hopEvent, t int64) int { return cmp.Compare(e.at, t) })
	drawn := false // the token's echo was drawn: the hops after it are not its
	for ; i < len(evs) && evs[i].at <= m.t1.UnixNano(); i++ {
		e := evs[i]
		r.evs = append(r.evs, e)
		if drawn {
			continue
		}
		ms := float64(e.at-m.t0.UnixNano()) / 1e6
		if _, ok := r.first[e.hop]; !ok {
			r.first[e.hop] = ms
		}
		r.last[e.hop] = ms
		r.n[e.hop]++
		if drawn = e.hop == "fr.draw" && strings.Contains(e.detail, "z"); drawn {
			r.first["echo"], r.last["echo"] = ms, ms
		}
	}
	r.last["capture"] = float64(r.lat) / 1e6
	return r
}

// own is Corral's own part of the sample: the UI's first key to the echo drawn.
func (r hopSample) own() (float64, bool) {
	k, ok1 := r.first["ui.key"]
	d, ok2 := r.last["echo"]
	return d - k, ok1 && ok2
}

// partsReport writes the quantiles of each part of the samples' time: before the UI
// read the first key (the outer tmux, and the scheduler), the UI's first key to the
// frame that completed the token's echo (Corral's own), and that frame to the capture
// that showed the token (the outer tmux drawing it, and the capture's poll); and how
// many samples a pacer or the renderer held for its budget before the echo was drawn.
func partsReport(out *strings.Builder, rows []hopSample) {
	seg := func(name string, f func(r hopSample) (float64, bool)) {
		var v []float64
		for _, r := range rows {
			if x, ok := f(r); ok {
				v = append(v, x)
			}
		}
		slices.Sort(v)
		if len(v) == 0 {
			return
		}
		q := func(p float64) float64 { return v[int(p*float64(len(v)-1))] }
		fmt.Fprintf(out, "  %-28s p50 %6.2f  p90 %6.2f  max %6.2f ms  (%d)\n", name, q(0.5), q(0.9), v[len(v)-1], len(v))
	}
	seg("total", func(r hopSample) (float64, bool) { return r.last["capture"], true })
	seg("send-keys -> first ui.key", func(r hopSample) (float64, bool) { k, ok := r.first["ui.key"]; return k, ok })
	seg("first ui.key -> echo drawn", hopSample.own)
	seg("last ui.key -> echo drawn", func(r hopSample) (float64, bool) {
		k, ok1 := r.last["ui.key"]
		d, ok2 := r.last["echo"]
		return d - k, ok1 && ok2
	})
	seg("echo drawn -> capture", func(r hopSample) (float64, bool) { d, ok := r.last["echo"]; return r.last["capture"] - d, ok })
	held := 0
	for _, r := range rows {
		if r.n["srv.held"]+r.n["br.held"]+r.n["fr.held"] > 0 {
			held++
		}
	}
	fmt.Fprintf(out, "  held by a pacer or the frame budget before the echo was drawn: %d of %d samples\n", held, len(rows))
}

// hopsReport writes, for a group of samples, each hop's first and last time after the
// first key (medians) and how many times it came.
func hopsReport(out *strings.Builder, name string, rows []hopSample) {
	a, _ := rows[0].own()
	z, _ := rows[len(rows)-1].own()
	fmt.Fprintf(out, "  by Corral's own time, %s: %.2f..%.2f ms; hop: first, last ms after the first key (medians), times per sample\n", name, a, z)
	for _, h := range hopOrder {
		var f, l []float64
		c := 0
		for _, r := range rows {
			if v, ok := r.last[h]; ok {
				k := r.first["ui.key"]
				f = append(f, r.first[h]-k)
				l = append(l, v-k)
				c += r.n[h]
			}
		}
		if len(f) == 0 {
			continue
		}
		slices.Sort(f)
		slices.Sort(l)
		fmt.Fprintf(out, "    %-10s %6.2f %6.2f  %4.1f× in %d/%d\n", h, f[len(f)/2], l[len(l)/2], float64(c)/float64(len(f)), len(f), len(rows))
	}
}

// timelines is the samples' events, each from the sample's first, by process.
func timelines(rows []hopSample) string {
	var b strings.Builder
	for _, r := range rows {
		o, _ := r.own()
		fmt.Fprintf(&b, "%s %.2f ms, own %.2f ms\n", r.token, float64(r.lat)/1e6, o)
		for _, e := range r.evs {
			fmt.Fprintf(&b, "  %7.2f %-6s %-10s %s\n", float64(e.at-r.evs[0].at)/1e6, e.proc, e.hop, e.detail)
		}
	}
	return b.String()
}

// readTraces reads every process's trace in dir, in time order.
func readTraces(b *testing.B, dir string) []hopEvent {
	files, _ := filepath.Glob(filepath.Join(dir, "*.trace"))
	var evs []hopEvent
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		proc := strings.TrimSuffix(filepath.Base(name), ".trace")
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			at, rest, _ := strings.Cut(sc.Text(), " ")
			hop, detail, _ := strings.Cut(rest, " ")
			t, err := strconv.ParseInt(at, 10, 64)
			if err != nil {
				continue
			}
			evs = append(evs, hopEvent{t, hop, detail, proc})
		}
		f.Close()
	}
	slices.SortFunc(evs, func(a, b hopEvent) int { return cmp.Compare(a.at, b.at) })
	return evs
}

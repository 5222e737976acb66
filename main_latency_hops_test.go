//go:build linux

package main

import (
	"bufio"
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
// to the frame that completed the echo, that frame to the capture), and for the
// samples of median and of slowest own time (the middle fifth, the slowest tenth) each
// hop's first and last time after the first key until the echo was drawn (medians),
// and how many times it came. The slowest fifth's whole timelines, up to the capture,
// go to slow.txt in the trace directory.
func (s *echoSeries) hops(b *testing.B) {
	evs := readTraces(b, s.trace)
	if len(evs) == 0 {
		b.Logf("%s: no hops traced (a build without package hoptrace?)", s.name)
		return
	}
	type row struct {
		lat   time.Duration
		first map[string]float64
		last  map[string]float64
		n     map[string]int
		evs   []hopEvent
		token string
	}
	var rows []row
	for _, m := range s.marks {
		r := row{lat: m.t1.Sub(m.t0), first: map[string]float64{}, last: map[string]float64{}, n: map[string]int{}, token: m.token}
		i, _ := slices.BinarySearchFunc(evs, m.t0.UnixNano(), func(e hopEvent, t int64) int { return cmpInt(e.at, t) })
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
			// A token ends in z (interleave): the frame that writes a z is the one that
			// completes its echo.
			if drawn = e.hop == "fr.draw" && strings.Contains(e.detail, "z"); drawn {
				r.first["echo"], r.last["echo"] = ms, ms
			}
		}
		r.last["capture"] = float64(r.lat) / 1e6
		rows = append(rows, r)
	}
	// Each sample's time in three parts: before the UI read the first key (the outer
	// tmux, and the scheduler), the UI's first key to the frame that completed the
	// token's echo (Corral's own), and that frame to the capture that showed the token
	// (the outer tmux drawing it, and the capture's poll).
	var out strings.Builder
	seg := func(name string, f func(r row) (float64, bool)) {
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
		fmt.Fprintf(&out, "  %-28s p50 %6.2f  p90 %6.2f  max %6.2f ms  (%d)\n", name, q(0.5), q(0.9), v[len(v)-1], len(v))
	}
	own := func(r row) (float64, bool) {
		k, ok1 := r.first["ui.key"]
		d, ok2 := r.last["echo"]
		return d - k, ok1 && ok2
	}
	fmt.Fprintf(&out, "%s: %d samples\n", s.name, len(rows))
	seg("total", func(r row) (float64, bool) { return r.last["capture"], true })
	seg("send-keys -> first ui.key", func(r row) (float64, bool) { k, ok := r.first["ui.key"]; return k, ok })
	seg("first ui.key -> echo drawn", own)
	seg("last ui.key -> echo drawn", func(r row) (float64, bool) {
		k, ok1 := r.last["ui.key"]
		d, ok2 := r.last["echo"]
		return d - k, ok1 && ok2
	})
	seg("echo drawn -> capture", func(r row) (float64, bool) { d, ok := r.last["echo"]; return r.last["capture"] - d, ok })
	held := 0 // samples whose echo a pacer or the renderer held for its budget
	for _, r := range rows {
		if r.n["srv.held"]+r.n["br.held"]+r.n["fr.held"] > 0 {
			held++
		}
	}
	fmt.Fprintf(&out, "  held by a pacer or the frame budget before the echo was drawn: %d of %d samples\n", held, len(rows))
	// The samples by Corral's own time: each hop's first and last time after the
	// first key (medians), and how many times it came.
	slices.SortFunc(rows, func(a, b row) int {
		x, _ := own(a)
		y, _ := own(b)
		return cmpInt(int64(x*1e6), int64(y*1e6))
	})
	n := len(rows)
	groups := []struct {
		name string
		rows []row
	}{{"median (40-60%)", rows[n*4/10 : max(n*6/10, n*4/10+1)]}, {"slowest 10%", rows[n*9/10:]}}
	for _, g := range groups {
		a, _ := own(g.rows[0])
		z, _ := own(g.rows[len(g.rows)-1])
		fmt.Fprintf(&out, "  by Corral's own time, %s: %.2f..%.2f ms; hop: first, last ms after the first key (medians), times per sample\n", g.name, a, z)
		for _, h := range hopOrder {
			var f, l []float64
			c := 0
			for _, r := range g.rows {
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
			fmt.Fprintf(&out, "    %-10s %6.2f %6.2f  %4.1f× in %d/%d\n", h, f[len(f)/2], l[len(l)/2], float64(c)/float64(len(f)), len(f), len(g.rows))
		}
	}
	b.Log(out.String())
	var slow strings.Builder
	for _, r := range rows[n*8/10:] {
		o, _ := own(r)
		fmt.Fprintf(&slow, "%s %.2f ms, own %.2f ms\n", r.token, float64(r.lat)/1e6, o)
		t0 := time.Duration(0)
		if len(r.evs) > 0 {
			t0 = time.Duration(r.evs[0].at)
		}
		for _, e := range r.evs {
			fmt.Fprintf(&slow, "  %7.2f %-6s %-10s %s\n", float64(time.Duration(e.at)-t0)/1e6, e.proc, e.hop, e.detail)
		}
	}
	if err := os.WriteFile(filepath.Join(s.trace, "slow.txt"), []byte(slow.String()), 0o644); err != nil {
		b.Error(err)
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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
	slices.SortFunc(evs, func(a, b hopEvent) int { return cmpInt(a.at, b.at) })
	return evs
}

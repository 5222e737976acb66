package main

import (
	"fmt"
	"io"
	"strings"

	"corral/runs/agentstate/agenttest"
)

// summarize prints what each phase of a recording looks like: its span, the title at
// its start, the titles and signals (OSC 7501/9/9;4/777/99, BEL) inside it and in the
// transition before it, and the last non-blank rows of its screen. The corpus README
// is written from this.
func summarize(w io.Writer, dir, name string, rows int) error {
	r, c, err := agenttest.Load(dir, name)
	if err != nil {
		return err
	}
	stream := c.Stream()
	sigs := agenttest.Signals(stream)
	fmt.Fprintf(w, "# %s: %s, %d bytes, %.1f s\n", r.Name, r.Version, len(stream), r.Duration)
	prev := 0
	for _, p := range r.Phases {
		if p.From > prev {
			fmt.Fprintf(w, "  (transition [%d, %d): %s)\n", prev, p.From, describe(sigs, prev, p.From))
		}
		fmt.Fprintf(w, "## %s (%s) [%d, %d) %.2f–%.2f s, title %q\n", p.Name, p.State, p.From, p.To,
			p.FromT, p.ToT, p.Title)
		fmt.Fprintf(w, "  inside: %s\n", describe(sigs, p.From, p.To))
		for _, l := range lastRows(p.Screen, rows) {
			fmt.Fprintf(w, "  | %s\n", l)
		}
		prev = p.To
	}
	fmt.Fprintf(w, "  (after [%d, %d): %s)\n", prev, len(stream), describe(sigs, prev, len(stream)))
	return nil
}

// describe lists the distinct signals in [from, to) with their counts.
func describe(sigs []agenttest.Signal, from, to int) string {
	var keys []string
	count := map[string]int{}
	for _, s := range sigs {
		if s.At < from || s.At >= to {
			continue
		}
		k := s.Kind
		if s.Text != "" {
			k += " " + fmt.Sprintf("%q", strings.TrimRight(s.Text, " "))
		}
		if count[k] == 0 {
			keys = append(keys, k)
		}
		count[k]++
	}
	if len(keys) == 0 {
		return "no signals"
	}
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s×%d", k, count[k])
	}
	return b.String()
}

// lastRows is the screen's last n non-blank rows, right-trimmed.
func lastRows(screen string, n int) []string {
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		if l = strings.TrimRight(l, " "); l != "" {
			rows = append(rows, l)
		}
	}
	return rows[max(0, len(rows)-n):]
}

package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"corral/runs/agentstate/agenttest"
)

// compare writes, in Markdown, how recording name in dir (a newer CLI's, named
// BASE-VERSION) differs from the recorded BASE in corpus: the phases' times side by
// side, the kinds of signals (titles, OSC 7501, BEL…) each phase had in one and not the
// other, and the rows of each phase's screen bottom that the recorded one never showed
// (new footers, modes, question layouts). Digits are masked when rows are compared:
// counters and clocks are no news.
func compare(w io.Writer, corpus, dir, name string, rows int) error {
	nr, nc, err := agenttest.Load(dir, name)
	if err != nil {
		return err
	}
	base := baseName(name)
	or, oc, err := agenttest.Load(corpus, base)
	if err != nil {
		return fmt.Errorf("%s: the recorded %s: %w", name, base, err)
	}
	fmt.Fprintf(w, "#### %s against %s\n\n", name, base)
	fmt.Fprintf(w, "%s, %d bytes in %.1f s; recorded %s, %d bytes in %.1f s.\n\n", nr.Version, nr.Bytes, nr.Duration,
		or.Version, or.Bytes, or.Duration)
	fmt.Fprintf(w, "| phase | state | recorded (s) | newest (s) |\n|---|---|---|---|\n")
	for _, p := range nr.Phases {
		was := "missing"
		if q, ok := or.Phase(p.Name); ok {
			was = fmt.Sprintf("%.2f–%.2f", q.FromT, q.ToT)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.2f–%.2f |\n", p.Name, p.State, was, p.FromT, p.ToT)
	}
	for _, q := range or.Phases {
		if _, ok := nr.Phase(q.Name); !ok {
			fmt.Fprintf(w, "| %s | %s | %.2f–%.2f | missing |\n", q.Name, q.State, q.FromT, q.ToT)
		}
	}
	fmt.Fprintln(w)
	nsig, osig := agenttest.Signals(nc.Stream()), agenttest.Signals(oc.Stream())
	var news []string
	for i, p := range nr.Phases {
		q, ok := or.Phase(p.Name)
		if !ok {
			continue
		}
		added := minus(kinds(nsig, p.From, p.To), kinds(osig, q.From, q.To))
		gone := minus(kinds(osig, q.From, q.To), kinds(nsig, p.From, p.To))
		if len(added)+len(gone) > 0 {
			news = append(news, fmt.Sprintf("- %s: signals new %q, gone %q", p.Name, added, gone))
		}
		if j := slices.IndexFunc(or.Phases, func(x agenttest.Phase) bool { return x.Name == p.Name }); i > 0 && j > 0 {
			nb, ob := kinds(nsig, nr.Phases[i-1].To, p.From), kinds(osig, or.Phases[j-1].To, q.From)
			if added, gone := minus(nb, ob), minus(ob, nb); len(added)+len(gone) > 0 {
				news = append(news, fmt.Sprintf("- before %s: signals new %q, gone %q", p.Name, added, gone))
			}
		}
		screen := strings.ReplaceAll(p.Screen, name, base) // its project's path names the recording
		if fresh := minus(masked(lastRows(screen, rows)), masked(lastRows(q.Screen, rows))); len(fresh) > 0 {
			news = append(news, fmt.Sprintf("- %s: rows the recorded screen did not have:\n\n      %s\n",
				p.Name, strings.Join(fresh, "\n      ")))
		}
	}
	if len(news) == 0 {
		fmt.Fprintf(w, "Same signals and the same last %d rows in every phase (digits aside).\n\n", rows)
		return nil
	}
	fmt.Fprintf(w, "%s\n\n", strings.Join(news, "\n"))
	return nil
}

// baseName is the recorded recording a newer one is compared with: its name without
// the version suffix the drift check gave it.
func baseName(name string) string {
	i := strings.LastIndex(name, "-")
	if i < 0 || !strings.ContainsAny(name[i:], "0123456789") {
		return name
	}
	return name[:i]
}

// kinds are the distinct kinds of signals in [from, to): a title by the glyph it
// starts with (any Braille spinner dot as "⠿"), an OSC 7501 by its state, others by
// their kind.
func kinds(sigs []agenttest.Signal, from, to int) []string {
	var out []string
	for _, s := range sigs {
		if s.At < from || s.At >= to {
			continue
		}
		k := s.Kind
		switch r, _ := utf8.DecodeRuneInString(s.Text); {
		case s.Kind == "title" && r >= 0x2801 && r <= 0x28FF:
			k += " ⠿…"
		case s.Kind == "title" && r != utf8.RuneError && !unicode.IsLetter(r):
			k += " " + string(r) + "…"
		case s.Kind == "osc7501":
			state, _, _ := strings.Cut(s.Text, ":")
			k += " " + state
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// masked are rows with runs of digits replaced by "#", Braille spinner dots by "⠿"
// and runs of spaces (padding that follows a path's length) by one.
func masked(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var b strings.Builder
		var last rune
		for _, c := range r {
			switch {
			case c >= '0' && c <= '9':
				c = '#'
			case c >= 0x2801 && c <= 0x28FF:
				c = '⠿'
			}
			if (c == '#' || c == ' ') && c == last {
				continue
			}
			b.WriteRune(c)
			last = c
		}
		out[i] = strings.TrimSpace(b.String())
	}
	return out
}

// minus are the members of a not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

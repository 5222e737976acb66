package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Panes narrower than their text wrap it at word boundaries instead of cutting it
// (details and help were cut mid-word at 80×24). A word longer than the
// whole width is still broken: there is nothing else to do with it.

// WrapHanging wraps a styled line to w columns; continuation lines are indented by
// hang columns (under the value of a "label value" line), or by one when a word of
// the value would not fit there. Each line it returns carries the styles open where
// it starts and closes them, so a pane's frame stays unstyled; each is at most w
// columns.
func WrapHanging(s string, w, hang int) []string {
	if WidthOf(s) <= w || w <= 0 {
		return []string{s}
	}
	hang = min(hang, w-1)
	head, rest := ansi.Truncate(s, hang, ""), strings.TrimLeft(ansi.TruncateLeft(s, hang, ""), " ")
	if hang <= 0 {
		head, rest = "", s
	}
	cont := hang
	for _, word := range strings.Split(rest, " ") {
		if WidthOf(word) > w-hang {
			cont = min(1, hang)
		}
	}
	var out []string
	open := ""
	for i, l := range wrapWords(rest, w-hang, w-cont) {
		prefix := strings.Repeat(" ", cont)
		if i == 0 {
			prefix = head
		}
		out = append(out, closeStyles(prefix+open+l))
		open = sgrState(open, l)
	}
	return out
}

// wrapWords breaks styled text into lines at spaces only — a hyphenated name
// ("no-output-timeout") is one word — the first at most first columns wide, the
// others at most w. A word wider than its line is broken.
func wrapWords(s string, first, w int) []string {
	var out []string
	line, lw, limit := "", -1, first
	for _, word := range strings.Split(s, " ") {
		ww := WidthOf(word)
		if lw >= 0 && lw+1+ww <= limit {
			line, lw = line+" "+word, lw+1+ww
			continue
		}
		if lw >= 0 || ww > limit && ww <= w { // the first word may fit a later line whole
			out, limit = append(out, line), w
		}
		for ww > limit && limit > 0 { // longer than a line: break it, after a / if it has one
			cut := pathCut(word, limit)
			out = append(out, ansi.Truncate(word, cut, ""))
			word, limit = ansi.TruncateLeft(word, cut, ""), w
			ww = WidthOf(word)
		}
		line, lw = word, ww
	}
	return append(out, line)
}

// pathCut is where a word too long for limit columns is broken: after its last /
// within them (a path breaks between its directories), else at limit.
func pathCut(word string, limit int) int {
	plain := ansi.Strip(word)
	if len(plain) != WidthOf(plain) { // not one column a byte: no guessing where a / falls
		return limit
	}
	if i := strings.LastIndexByte(plain[:min(limit, len(plain))], '/'); i > 0 {
		return i + 1
	}
	return limit
}

// closeStyles ends a line that sets a style with a reset.
func closeStyles(l string) string {
	if strings.Contains(l, "\x1b[") && !strings.HasSuffix(l, "\x1b[m") && !strings.HasSuffix(l, "\x1b[0m") {
		return l + "\x1b[m"
	}
	return l
}

// sgrState is the SGR sequences still in effect after line, given those in effect
// before it: every SGR since the last reset.
func sgrState(open, line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] != 0x1b || i+1 >= len(line) || line[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
			j++
		}
		if j >= len(line) {
			break
		}
		if line[j] == 'm' {
			if p := line[i+2 : j]; p == "" || p == "0" {
				open = ""
			} else {
				open += line[i : j+1]
			}
		}
		i = j
	}
	return open
}

// WrapLines wraps every line of a body to w columns with hang-column continuation
// indents.
func WrapLines(lines []string, w, hang int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, WrapHanging(l, w, hang)...)
	}
	return out
}

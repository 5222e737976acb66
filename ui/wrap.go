package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Panes narrower than their text wrap it at word boundaries instead of cutting it
// (issue 14.7: details and help were cut mid-word at 80×24). A word longer than the
// whole width is still broken: there is nothing else to do with it.

// wrapHanging wraps a styled line to w columns; continuation lines are indented by
// hang columns (under the value of a "label value" line). Each line it returns
// carries the styles open where it starts and closes them, so a pane's frame stays
// unstyled; each is at most w columns.
func wrapHanging(s string, w, hang int) []string {
	if widthOf(s) <= w || w <= 0 {
		return []string{s}
	}
	if w-hang < 8 { // too narrow to indent: wrap under the start
		hang = 0
	}
	head, rest := s, ""
	if hang > 0 {
		head, rest = ansi.Truncate(s, hang, ""), ansi.TruncateLeft(s, hang, "")
	}
	var out []string
	open := ""
	if hang == 0 {
		for _, l := range strings.Split(ansi.Wrap(s, w, ""), "\n") {
			out = append(out, closeStyles(open+l))
			open = sgrState(open, l)
		}
		return out
	}
	pad := strings.Repeat(" ", hang)
	for i, l := range strings.Split(ansi.Wrap(strings.TrimLeft(rest, " "), w-hang, ""), "\n") {
		prefix := pad
		if i == 0 {
			prefix = head
		}
		out = append(out, closeStyles(prefix+open+l))
		open = sgrState(open, l)
	}
	return out
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

// wrapLines wraps every line of a body to w columns with hang-column continuation
// indents.
func wrapLines(lines []string, w, hang int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, wrapHanging(l, w, hang)...)
	}
	return out
}

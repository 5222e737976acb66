package details

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"corral/runs"
	"corral/ui/common"
)

// The details pane showing a configured run not started yet (autostart = false, or
// removed after it ran: ui/pending.go): its spec and how to start it.

// pending is a configured run not started: its spec, and whether its start was asked.
type pending struct {
	spec     runs.Spec
	starting bool
}

// ShowPending shows a pending run's spec; starting says its start was asked.
func (d *Details) ShowPending(spec runs.Spec, starting bool) {
	d.tree, d.treeErr = nil, ""
	d.info, d.has = runs.Info{}, false
	d.pend, d.hasPend = pending{spec: spec, starting: starting}, true
	d.ver++
}

// pendingFacts are what a pending run would run and how to start it.
func (d Details) pendingFacts() []string {
	s, st := d.pend.spec, d.c.Styles
	state := "not started"
	if d.pend.starting {
		state = "starting…"
	}
	label, cmd := "shell", common.Clean(s.Shell)
	if len(s.Argv) > 0 {
		label, cmd = "argv", argvText(s.Argv)
	}
	cwd := st.Muted.Render("corral's own")
	if s.Dir != "" {
		cwd = common.Clean(s.Dir)
	}
	lines := []string{
		d.label("state") + st.Muted.Render(state) + " · " + string(s.Kind()),
		d.label(label) + cmd,
		d.label("cwd") + cwd,
		d.label("overall") + d.spanText(s.Timeout),
		d.label("no-out") + d.noOutputText(s),
		d.label("grace") + d.graceText(s.Grace),
	}
	if len(s.Env) > 0 {
		lines = append(lines, d.label("env")+envNames(s.Env))
	}
	k := d.startKey.Help().Key
	return append(lines, "", " "+st.Key.Render(k)+" to start it")
}

// argvText shows an argv as one line, quoting the arguments a reader could misread.
func argvText(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\"'\\") || common.Clean(a) != a {
			a = strconv.Quote(a)
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

func (d Details) spanText(span time.Duration) string {
	if span <= 0 {
		return d.c.Styles.Muted.Render("off")
	}
	return common.FmtLeft(span)
}

// noOutputText follows watchdog.Derive: negative is off, zero is derived from the
// overall timeout (off without one).
func (d Details) noOutputText(s runs.Spec) string {
	switch {
	case s.NoOutputTimeout > 0:
		return common.FmtLeft(s.NoOutputTimeout)
	case s.NoOutputTimeout < 0 || s.Timeout <= 0:
		return d.c.Styles.Muted.Render("off")
	}
	return "derived from the overall timeout"
}

func (d Details) graceText(g time.Duration) string {
	if g <= 0 {
		return d.c.Styles.Muted.Render("default")
	}
	return g.String()
}

// envNames lists the names of the environment additions (not their values).
func envNames(env []string) string {
	names := make([]string, len(env))
	for i, kv := range env {
		names[i], _, _ = strings.Cut(kv, "=")
	}
	return fmt.Sprintf("+%d: %s", len(env), common.Clean(strings.Join(names, " ")))
}

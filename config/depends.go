package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Dependency is one entry of a run's depends_on: the run it waits for, by name, and
// the condition that run must meet.
type Dependency struct {
	Name      string
	Condition string // one of Conditions
	Line      int    // where it is written, for messages
}

// Conditions are the conditions depends_on takes.
var Conditions = []string{"started", "ready", "succeeded", "ended"}

// DepLostRestart is on_dependency_lost's one value.
const DepLostRestart = "restart"

// dependsOn reads depends_on = { db = "ready", migrate = "succeeded" }, or the
// short form depends_on = ["db", "cache"], which waits for each to be started (as
// compose's list form does).
func (d *decoder) dependsOn(r *RunEntry, v value) error {
	switch v.kind {
	case unstable.Array:
		for _, e := range v.elems {
			name, err := asName(e)
			if err != nil {
				return atLine{e.line, err}
			}
			r.DependsOn = append(r.DependsOn, Dependency{Name: name, Condition: "started", Line: e.line})
		}
		return nil
	case unstable.InlineTable:
		for _, p := range v.pairs {
			if err := d.dependency(r, p); err != nil {
				return err
			}
		}
		return nil
	}
	return want(`a table of run names and conditions, like { db = "ready", migrate = "succeeded" }`, v)
}

// dependency reads one name = "condition" of depends_on.
func (d *decoder) dependency(r *RunEntry, p pair) error {
	name := p.key[0]
	if len(p.key) != 1 || checkName(name) != nil {
		return atLine{p.line, fmt.Errorf("%q is not a run name", dotted(p.key))}
	}
	cond, err := asString(p.val)
	if err == nil && !slices.Contains(Conditions, cond) {
		err = fmt.Errorf("unknown condition %q", cond)
	}
	if err != nil {
		return atLine{p.line, fmt.Errorf("%s: %w (want %s)", name, err, quoteOr(Conditions))}
	}
	r.DependsOn = append(r.DependsOn, Dependency{Name: name, Condition: cond, Line: p.line})
	return nil
}

// checkDepends checks what only the whole file knows: every dependency names a run
// of the file, none is the run itself, a ready condition is on a run with a
// readiness probe, and no run waits, through others, for itself.
func (d *decoder) checkDepends() {
	byName := map[string]*RunEntry{}
	for k := range d.f.Runs {
		byName[d.f.Runs[k].Name] = &d.f.Runs[k]
	}
	for _, r := range d.f.Runs {
		for _, dep := range r.DependsOn {
			d.note(d.checkDependency(r, dep, byName))
		}
	}
	if len(d.errs) == 0 {
		d.note(d.findCycle(byName))
	}
}

func (d *decoder) checkDependency(r RunEntry, dep Dependency, byName map[string]*RunEntry) error {
	in := fmt.Sprintf("run %q", r.Name)
	on, ok := byName[dep.Name]
	switch {
	case dep.Name == r.Name:
		return d.fail(dep.Line, in, "depends_on", fmt.Errorf("%s cannot wait for itself: remove it from depends_on", dep.Name))
	case !ok:
		names := slices.Sorted(func(yield func(string) bool) {
			for n := range byName {
				if n != r.Name && !yield(n) {
					return
				}
			}
		})
		msg := fmt.Sprintf("no run is named %q", dep.Name)
		if s := closest(dep.Name, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else if len(names) > 0 {
			msg += " (the runs: " + strings.Join(names, ", ") + ")"
		}
		return d.fail(dep.Line, in, "depends_on", errors.New(msg))
	case on.Parity:
		return d.fail(dep.Line, in, "depends_on", fmt.Errorf("%s is a parity pair (two runs): depend on a run of its own", dep.Name))
	case dep.Condition == "ready" && on.Ready == nil:
		return d.fail(dep.Line, in, "depends_on", fmt.Errorf(
			`%s = "ready" can never hold: run %q has no readiness probe (give it ready = { … }, or wait for "started")`, dep.Name, dep.Name))
	case dep.Condition == "succeeded" && on.Restart == RestartAlways:
		// Its exit 0 is followed by another attempt: it never ends having succeeded
		// (until its budget runs out), and what waits for it would wait through them.
		return d.fail(dep.Line, in, "depends_on", fmt.Errorf(
			`%s = "succeeded" can never hold: run %q restarts always, even after exit 0 (give it restart = "on-failure", or wait for "started")`, dep.Name, dep.Name))
	}
	return nil
}

// findCycle reports a run that waits for itself through others, naming the cycle,
// at the line of the dependency that closes it.
func (d *decoder) findCycle(byName map[string]*RunEntry) error {
	const (
		unseen = iota
		onPath
		done
	)
	mark := map[string]int{}
	var path []string
	var visit func(r *RunEntry) error
	visit = func(r *RunEntry) error {
		mark[r.Name] = onPath
		path = append(path, r.Name)
		for _, dep := range r.DependsOn {
			switch mark[dep.Name] {
			case onPath:
				at := slices.Index(path, dep.Name)
				cycle := strings.Join(append(slices.Clone(path[at:]), dep.Name), " → ")
				return d.fail(dep.Line, fmt.Sprintf("run %q", r.Name), "depends_on",
					fmt.Errorf("a cycle: %s; none of them could ever start: remove one of these dependencies", cycle))
			case unseen:
				if err := visit(byName[dep.Name]); err != nil {
					return err
				}
			}
		}
		path = path[:len(path)-1]
		mark[r.Name] = done
		return nil
	}
	for k := range d.f.Runs {
		if mark[d.f.Runs[k].Name] == unseen {
			if err := visit(&d.f.Runs[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// StartOrder is the entries with every run after the runs it depends on, in file
// order otherwise, and with autostart set on each run an autostarted run depends on
// (directly or through others): starting a run starts what it waits for, as compose
// tools do. A config is free of cycles (Parse refuses them); a run named by no entry
// is left where it is.
func StartOrder(entries []RunEntry) []RunEntry {
	byName := map[string]int{}
	for k, e := range entries {
		byName[e.Name] = k
	}
	out := make([]RunEntry, 0, len(entries))
	placed := make([]bool, len(entries))
	var place func(k int, needed bool)
	place = func(k int, needed bool) {
		if placed[k] {
			if needed {
				markNeeded(out, entries[k].Name)
			}
			return
		}
		placed[k] = true
		e := entries[k]
		e.Autostart = e.Autostart || needed
		for _, d := range e.DependsOn {
			if j, ok := byName[d.Name]; ok {
				place(j, e.Autostart)
			}
		}
		out = append(out, e)
	}
	for k := range entries {
		place(k, false)
	}
	return out
}

// markNeeded sets autostart on the placed run name and on what it depends on.
func markNeeded(out []RunEntry, name string) {
	k := slices.IndexFunc(out, func(e RunEntry) bool { return e.Name == name })
	if k < 0 || out[k].Autostart {
		return
	}
	out[k].Autostart = true
	for _, d := range out[k].DependsOn {
		markNeeded(out, d.Name)
	}
}

// UpConditions is what corral up --wait waits for in each run, by name: the most a
// dependent needs of it (succeeded, then ended, then ready), ready for a run with a
// readiness probe that nothing needs more of; a run absent waits until it started.
func UpConditions(entries []RunEntry) map[string]string {
	rank := map[string]int{"started": 0, "ready": 1, "ended": 2, "succeeded": 3}
	out := map[string]string{}
	raise := func(name, cond string) {
		if cur, ok := out[name]; !ok || rank[cond] > rank[cur] {
			out[name] = cond
		}
	}
	for _, e := range entries {
		if e.Ready != nil {
			raise(e.Name, "ready")
		}
		for _, d := range e.DependsOn {
			raise(d.Name, d.Condition)
		}
	}
	return out
}

package runs

import (
	"fmt"
	"slices"
	"strings"
)

// Dependencies given on the command line (corral spawn --depends-on, corral run
// --depends-on) name runs that are in the server already, by name or by id: unlike a
// config's, whose runs are started together and may come later, one that names no run
// is an error and nothing is started. They are then waited for as a config's are
// (depends_wait.go): the same conditions, the same wait, the same end when one can
// never hold.

// ParseDependency reads --depends-on's NAME=CONDITION (NAME alone: started, as a
// config's list form).
func ParseDependency(v string) (Dependency, error) {
	name, cond, ok := strings.Cut(v, "=")
	d := Dependency{Name: strings.TrimSpace(name), Condition: CondStarted}
	if ok {
		c, err := ParseCondition(strings.TrimSpace(cond))
		if err != nil {
			return d, err
		}
		d.Condition = c
	}
	if err := checkName(d.Name); err != nil {
		return d, fmt.Errorf("%w: %w", ErrBadSpec, err)
	}
	return d, nil
}

// ResolveDeps checks dependencies named on the command line against the server's runs
// (all: its snapshot) for a new run called name: each must name a run, by name or by
// id (or a unique id prefix); one named by id is that run (its Name the run's id),
// one named by name the newest run of it, as a config's. A condition that can never
// hold by the run's spec (ready without a readiness probe, succeeded on a run that
// restarts always) is refused as the config refuses it, and so is a wait that would
// close a cycle: a run still waiting for a run of this name, which this one would
// wait for in turn.
func ResolveDeps(all []Info, name string, deps []Dependency) ([]Dependency, error) {
	out := make([]Dependency, 0, len(deps))
	for _, d := range deps {
		i, byID, err := findDep(all, d.Name)
		if err != nil {
			return nil, err
		}
		if byID {
			d.Name = i.ID
		}
		switch {
		case d.Name == name:
			return nil, fmt.Errorf("%w: --depends-on %s: the new run is called %s too, and would wait for itself (the newest run of the name): give it another --name, or the other run's id",
				ErrBadSpec, d.Name, name)
		case d.Condition == CondReady && i.Spec.Ready == nil:
			return nil, fmt.Errorf(`%w: --depends-on %s=ready can never hold: run %s has no readiness probe (start it with --ready, or wait for "started")`,
				ErrBadSpec, d.Name, i.ID)
		case d.Condition == CondSucceeded && i.Spec.Restart != nil && i.Spec.Restart.Policy == RestartAlways:
			return nil, fmt.Errorf(`%w: --depends-on %s=succeeded can never hold: run %s restarts always, even after exit 0 (wait for "started")`,
				ErrBadSpec, d.Name, i.ID)
		}
		if path := depCycle(all, name, d.Name); path != nil {
			return nil, fmt.Errorf("%w: --depends-on %s: a cycle: %s waits for %s, which waits for %s", ErrBadSpec, d.Name,
				name, d.Name, strings.Join(append(path[1:], name), ", which waits for "))
		}
		if slices.ContainsFunc(out, func(e Dependency) bool { return e.Name == d.Name }) {
			return nil, fmt.Errorf("%w: --depends-on %s is given twice", ErrBadSpec, d.Name)
		}
		out = append(out, d)
	}
	return out, nil
}

// findDep is the run ref names among all: its newest run of that name, else the run
// of that id or unique id prefix (byID).
func findDep(all []Info, ref string) (i Info, byID bool, err error) {
	for k := len(all) - 1; k >= 0; k-- {
		if all[k].Name == ref {
			return all[k], false, nil
		}
	}
	var found []Info
	for _, i := range all {
		if i.ID == ref {
			return i, true, nil
		}
		if strings.HasPrefix(i.ID, ref) {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 1:
		return found[0], true, nil
	case 0:
		names := []string{}
		for _, i := range all {
			if !slices.Contains(names, i.Name) {
				names = append(names, i.Name)
			}
		}
		slices.Sort(names)
		known := "the server has no runs"
		if len(names) > 0 {
			known = "the runs: " + strings.Join(names, ", ")
		}
		return Info{}, false, fmt.Errorf("%w: --depends-on %s: no run in the server has that name or id (%s); nothing was started",
			ErrBadSpec, ref, known)
	}
	return Info{}, false, fmt.Errorf("%w: --depends-on %s: the start of %d runs' ids; give more of it", ErrBadSpec, ref, len(found))
}

// depCycle is the chain of runs still waiting by which the newest run called from
// waits, in the end, for a run called name (nil: none does): from, then each it waits
// for, up to the one that waits for name.
func depCycle(all []Info, name, from string) []string {
	newest := map[string]Info{}
	for _, i := range all {
		newest[i.Name] = i // all is oldest first
	}
	seen := map[string]bool{}
	var walk func(n string) []string
	walk = func(n string) []string {
		i, ok := newest[n]
		if !ok || seen[n] || !i.Waiting() {
			return nil
		}
		seen[n] = true
		for _, d := range i.WaitingFor {
			if d.Name == name {
				return []string{n}
			}
			if rest := walk(d.Name); rest != nil {
				return append([]string{n}, rest...)
			}
		}
		return nil
	}
	return walk(from)
}

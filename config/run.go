package config

import (
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2/unstable"
)

// run reads one [[run]] table. The name is read first so that every later message
// can say which run it is about.
func (d *decoder) run(t table) error {
	r := RunEntry{Line: t.line, Autostart: true}
	in, err := d.runName(t, &r)
	if err != nil {
		return err
	}
	d.names[r.Name] = r.Line
	seen := map[string]int{} // key → line, for the checks across keys
	n := len(d.errs)
	for _, p := range t.pairs {
		d.note(d.runPair(&r, in, p, seen))
	}
	if len(d.errs) == n { // the checks across keys would only repeat a key's problem
		d.note(d.checkRun(r, in, seen))
	}
	if len(d.errs) == n {
		d.f.Runs = append(d.f.Runs, r)
	}
	return nil
}

// runName sets r.Name and returns how messages name the run.
func (d *decoder) runName(t table, r *RunEntry) (string, error) {
	in := fmt.Sprintf("run #%d", len(d.f.Runs)+1)
	i := indexKey(t.pairs, "name")
	if i < 0 {
		return "", d.fail(t.line, in, "", errors.New(`missing key "name": every run needs one`))
	}
	p := t.pairs[i]
	name, err := asName(p.val)
	if err != nil {
		return "", d.fail(p.line, in, "name", err)
	}
	if line, dup := d.names[name]; dup {
		return "", d.fail(p.line, in, "name", fmt.Errorf("%q is taken by the run on line %d", name, line))
	}
	r.Name = name
	return fmt.Sprintf("run %q", name), nil
}

func (d *decoder) runPair(r *RunEntry, in string, p pair, seen map[string]int) error {
	if len(p.key) == 2 && p.key[0] == "env" {
		return d.setEnv(r, in, p.key[1], p.line, p.val)
	}
	set := runKeys[p.key[0]]
	if len(p.key) != 1 || set == nil {
		return unknownKey(d, p, in, runKeys)
	}
	seen[p.key[0]] = p.line
	if err := set(d, r, p.val); err != nil {
		return d.fail(p.line, in, p.key[0], err)
	}
	return nil
}

// checkRun checks what no single key can: one command form, and both sizes.
func (d *decoder) checkRun(r RunEntry, in string, seen map[string]int) error {
	cmdLine, hasCmd := seen["cmd"]
	argvLine, hasArgv := seen["argv"]
	switch {
	case hasCmd && hasArgv:
		key, line := "argv", argvLine
		if cmdLine > argvLine {
			key, line = "cmd", cmdLine
		}
		return d.fail(line, in, key, errors.New(`set "cmd" (a shell command line) or "argv" (a program and its arguments), not both`))
	case !hasCmd && !hasArgv:
		return d.fail(r.Line, in, "", errors.New(`missing "cmd" (a shell command line) or "argv" (a program and its arguments)`))
	}
	for _, k := range []string{"branch", "base"} {
		if line, has := seen[k]; has && !r.Worktree {
			return d.fail(line, in, k, errors.New(`set "worktree = true" too: a branch and a base are its worktree's`))
		}
	}
	if err := d.checkService(r, in, seen); err != nil {
		return err
	}
	for _, k := range [2][2]string{{"cols", "rows"}, {"rows", "cols"}} {
		line, has := seen[k[0]]
		if _, pair := seen[k[1]]; has && !pair {
			return d.fail(line, in, k[0], fmt.Errorf("set %q too: a size needs both", k[1]))
		}
	}
	return nil
}

// runEnv reads a [run.env] table: environment additions of the [[run]] above it.
func (d *decoder) runEnv(t table) error {
	if len(d.f.Runs) == 0 {
		return d.fail(t.line, "", "", errors.New("[run.env] must follow the [[run]] it belongs to"))
	}
	r := &d.f.Runs[len(d.f.Runs)-1]
	in := fmt.Sprintf("run %q", r.Name)
	for _, p := range t.pairs {
		if len(p.key) != 1 {
			return d.fail(p.line, in, "env."+dotted(p.key), errors.New("want a variable name, not a dotted key"))
		}
		if err := d.setEnv(r, in, p.key[0], p.line, p.val); err != nil {
			return err
		}
	}
	return nil
}

// inlineEnv reads env = { NAME = "value", … }.
func (d *decoder) inlineEnv(r *RunEntry, v value) error {
	if v.kind != unstable.InlineTable {
		return want(`a table of strings, like { GOFLAGS = "-race" }`, v)
	}
	in := fmt.Sprintf("run %q", r.Name)
	for _, p := range v.pairs {
		if len(p.key) != 1 {
			return d.fail(p.line, in, "env."+dotted(p.key), errors.New("want a variable name, not a dotted key"))
		}
		if err := d.setEnv(r, in, p.key[0], p.line, p.val); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) setEnv(r *RunEntry, in, name string, line int, v value) error {
	key := "env." + tomlKey(name)
	if err := checkEnvName(name); err != nil {
		return d.fail(line, in, key, err)
	}
	s, err := asString(v)
	if err != nil {
		return d.fail(line, in, key, err)
	}
	if r.Env == nil {
		r.Env = map[string]string{}
	}
	r.Env[name] = s
	return nil
}

func indexKey(pairs []pair, key string) int {
	for i, p := range pairs {
		if len(p.key) == 1 && p.key[0] == key {
			return i
		}
	}
	return -1
}

package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Effective renders the configuration Corral would use, for `corral check`: d with
// the file's [defaults] applied (every key, whether the file set it or not), the
// [keys] overrides, then each run as written. The text is itself a valid
// corral.toml: parsing it at the same path gives the same values, but for the values
// of environment variables whose names say they are secrets (secret.go), in a run's
// env, an argv assignment or its cmd, which read Masked.
func (f *File) Effective(d Defaults) string {
	d = f.Apply(d)
	var w tomlWriter
	if f != nil && f.Path != "" {
		w.line("# Effective configuration of " + strconv.Quote(f.Path))
	} else {
		w.line("# Effective configuration (built-in defaults, no config file)")
	}
	w.defaults(d)
	if f == nil {
		return w.String()
	}
	if len(f.Keys) > 0 {
		w.line("\n[keys]")
		for _, action := range slices.Sorted(maps.Keys(f.Keys)) {
			w.kv(action, tomlStrings(f.Keys[action]))
		}
	}
	if f.UI.Mouse || f.UI.WindowSize != "" {
		w.line("\n[ui]")
	}
	if f.UI.Mouse {
		w.kv("mouse", "true")
	}
	if f.UI.WindowSize != "" {
		w.kv(keyWindowSize, tomlString(f.UI.WindowSize))
	}
	w.notify(f.Notify)
	if f.Worktree.Root != "" || f.Worktree.Setup != nil {
		w.line("\n[worktree]")
		w.optional("root", f.Worktree.Root != "", tomlString(f.Worktree.Root))
		if f.Worktree.Setup != nil {
			steps := make([]string, len(f.Worktree.Setup))
			for i, st := range f.Worktree.Setup {
				steps[i] = maskShell(st)
			}
			w.kv("setup", tomlStrings(steps))
		}
	}
	for _, r := range f.Runs {
		w.run(r)
	}
	for _, h := range f.Hosts {
		w.host(h)
	}
	return w.String()
}

func (w *tomlWriter) host(h HostEntry) {
	w.line("\n[[host]]")
	w.kv("name", tomlString(h.Name))
	w.kv("ssh", tomlString(h.SSH))
	w.optional("corral", h.Corral != "", tomlString(h.Corral))
	w.optional(keyStateDir, h.StateDir != "", tomlString(h.StateDir))
}

type tomlWriter struct{ strings.Builder }

func (w *tomlWriter) line(s string) { w.WriteString(s + "\n") }

func (w *tomlWriter) kv(key, val string) { w.line(tomlKey(key) + " = " + val) }

func (w *tomlWriter) defaults(d Defaults) {
	w.line("\n[defaults]")
	w.kv(keyGrace, tomlDuration(d.Grace))
	w.kv(keyTimeout, tomlDuration(max(d.Timeout, 0)))
	switch {
	case d.NoOutputTimeout > 0:
		w.kv(keyNoOutput, tomlDuration(d.NoOutputTimeout))
	case d.NoOutputTimeout < 0:
		w.kv(keyNoOutput, `"0s"`)
	default:
		w.line("# no_output_timeout: derived from each run's overall timeout")
	}
	w.kv(keyOutputCap, strconv.Itoa(d.OutputCap))
	w.kv(keyTranscriptCap, strconv.FormatInt(d.TranscriptCap, 10))
	w.kv(keyScrollback, strconv.Itoa(d.ScrollbackLines))
	w.kv(keyTTL, tomlDuration(d.FinishedTTL))
	w.kv(keyLogTTL, tomlDuration(d.LogTTL))
	w.kv(keyReconcile, tomlString(d.ReconcilePolicy))
	w.kv(keyEscape, tomlString(d.EscapePolicy))
	if d.CgroupRoot != "" {
		w.kv(keyCgroupRoot, tomlString(d.CgroupRoot))
	} else {
		w.line("# cgroup_root: found (Corral's own cgroup if delegated, else a writable cgroup2 mount), else sessions")
	}
	if d.StateDir != "" {
		w.kv(keyStateDir, tomlString(d.StateDir))
	} else {
		w.line("# state_dir: $" + StateDirEnv + ", else $XDG_STATE_HOME/corral, else ~/.local/state/corral")
	}
}

func (w *tomlWriter) run(r RunEntry) {
	w.line("\n[[run]]")
	w.kv("name", tomlString(r.Name))
	if r.Argv != nil {
		argv := make([]string, len(r.Argv))
		for i, a := range r.Argv {
			argv[i] = maskWord(a)
		}
		w.kv("argv", tomlStrings(argv))
	} else {
		w.kv("cmd", tomlString(maskShell(r.Cmd)))
	}
	w.kv("pty", strconv.FormatBool(r.PTY))
	w.optional("parity", r.Parity, "true")
	w.kv("autostart", strconv.FormatBool(r.Autostart))
	w.optional("cwd", r.Cwd != "", tomlString(r.Cwd))
	w.optional(keyTimeout, r.TimeoutSet, tomlDuration(r.Timeout))
	w.optional(keyNoOutput, r.NoOutputSet, tomlDuration(r.NoOutputTimeout))
	w.optional(keyGrace, r.Grace > 0, tomlDuration(r.Grace))
	w.optional("stop_signal", r.StopSignal != "", tomlString(r.StopSignal))
	w.optional(keyEscape, r.EscapePolicy != "", tomlString(r.EscapePolicy))
	w.optional("cols", r.Cols > 0, strconv.Itoa(int(r.Cols)))
	w.optional("rows", r.Rows > 0, strconv.Itoa(int(r.Rows)))
	w.optional("agent", r.Agent != "", tomlString(r.Agent))
	w.optional("worktree", r.Worktree, "true")
	w.optional("branch", r.Branch != "", tomlString(r.Branch))
	w.optional("base", r.Base != "", tomlString(r.Base))
	w.optional("restore", r.Restore, "true")
	w.service(r)
	if len(r.DependsOn) > 0 {
		deps := make([]string, len(r.DependsOn))
		for i, d := range r.DependsOn {
			deps[i] = tomlKey(d.Name) + " = " + tomlString(d.Condition)
		}
		w.kv("depends_on", "{ "+strings.Join(deps, ", ")+" }")
	}
	w.optional("on_dependency_lost", r.OnDependencyLost != "", tomlString(r.OnDependencyLost))
	if len(r.Env) > 0 {
		var vars []string
		for _, k := range slices.Sorted(maps.Keys(r.Env)) {
			vars = append(vars, tomlKey(k)+" = "+tomlString(maskEnv(k, r.Env[k])))
		}
		w.kv("env", "{ "+strings.Join(vars, ", ")+" }")
	}
}

// service writes a run's restart policy and probes as the file gave them.
func (w *tomlWriter) service(r RunEntry) {
	w.optional("restart", r.Restart != "", tomlString(r.Restart))
	switch {
	case r.BackoffSet && r.BackoffMax > 0:
		w.kv("backoff", tomlString(strings.Trim(tomlDuration(r.Backoff), `"`)+".."+strings.Trim(tomlDuration(r.BackoffMax), `"`)))
	case r.BackoffSet:
		w.kv("backoff", tomlDuration(r.Backoff))
	case r.BackoffMax > 0:
		w.kv("backoff_max", tomlDuration(r.BackoffMax))
	}
	w.optional("max_restarts", r.MaxRestartsSet, strconv.Itoa(r.MaxRestarts))
	w.optional("restart_window", r.RestartWindow > 0, tomlDuration(r.RestartWindow))
	w.optional("ready", r.Ready != nil, tomlProbe(r.Ready))
	w.optional("alive", r.Alive != nil, tomlProbe(r.Alive))
}

// tomlProbe writes a probe as an inline table, its defaults filled in (what it runs
// with); an exec probe's command line masked as a cmd's is.
func tomlProbe(p *Probe) string {
	if p == nil {
		return ""
	}
	d := ProbeDefaults(*p)
	target := d.Target
	if d.Kind == ProbeExec {
		target = maskShell(target)
	}
	return fmt.Sprintf("{ %s = %s, initial_delay = %s, period = %s, timeout = %s, success = %d, failure = %d }",
		d.Kind, tomlString(target), tomlDuration(d.InitialDelay), tomlDuration(d.Period), tomlDuration(d.Timeout), d.Success, d.Failure)
}

func (w *tomlWriter) notify(n Notify) {
	w.line("\n[notify]")
	w.kv("terminal", tomlString(n.Terminal))
	w.kv("min_interval", tomlDuration(n.MinInterval))
	if n.Command != "" {
		w.kv("command", tomlString(n.Command))
	} else {
		w.line("# command: none (run with a JSON object on stdin for each notification)")
	}
}

func (w *tomlWriter) optional(key string, set bool, val string) {
	if set {
		w.kv(key, val)
	}
}

// tomlDuration writes Go duration syntax, trimmed the way people write it: "30m",
// not "30m0s".
func tomlDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return `"` + s + `"`
}

func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// tomlKey writes a key bare when TOML allows it, quoted otherwise.
func tomlKey(k string) string {
	if k == "" || strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
		return tomlString(k)
	}
	return k
}

// tomlString writes a TOML basic string. Go's strconv.Quote will not do: TOML has
// no \x, \a or \v escapes.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

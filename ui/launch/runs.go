package launch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"corral/config"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/cli/control"
	"corral/runs/cli/parity"
	"corral/runs/client"
	"corral/ui"
)

// Runs is what the UI opens with: the runs to start, the configured runs it lists
// without starting (autostart = false), every configured run (a removed one is listed
// as not started again), key overrides, the mouse ([ui] mouse), and whether they are
// corral replay's players.
type Runs struct {
	Start, Pending, Configured []runs.Spec
	Keys                       map[string][]string
	Mouse, Replay              bool
	Notify                     config.Notify       // [notify]: how a user who is elsewhere is told
	Agents                     []*agentstate.Agent // rules besides the built-in and the user's (the demo's agent)
	Hosts                      []client.Host       // [[host]]: other machines' servers shown beside this one's
}

// Load reads the config file (or Procfile) the flags and environment point at:
// configFlag as --config, procfile as --procfile. The Runs it returns carries the
// file's UI preferences only (keys, mouse); FromEntries turns the entries into runs.
func Load(configFlag, procfile string) (config.Defaults, []config.RunEntry, Runs, error) {
	d := config.Default()
	none := Runs{Notify: config.DefaultNotify()}
	if procfile != "" {
		entries, err := config.LoadProcfile(procfile)
		return d, entries, none, err
	}
	path, err := config.Discover(configFlag)
	if err != nil || path == "" {
		return d, nil, none, err
	}
	file, err := config.Load(path)
	if err == nil {
		err = CheckKeys(file)
	}
	if err != nil {
		return d, nil, none, err
	}
	return file.Apply(d), file.Runs, Runs{Keys: file.Keys, Mouse: file.UI.Mouse, Notify: file.Notify, Hosts: control.Hosts(file)}, nil
}

// FromEntries sorts the config's entries into rs: the runs to start (autostart), those
// listed only, and all of them; an entry with parity = true is its PTY and pipe pair.
// Runs with dependencies come after what they depend on, which starts with them
// (config.StartOrder): a dependent never waits on an older, ended run of the name.
func FromEntries(rs Runs, d config.Defaults, entries []config.RunEntry) (Runs, error) {
	if slices.ContainsFunc(entries, func(e config.RunEntry) bool { return len(e.DependsOn) > 0 }) {
		entries = config.StartOrder(entries)
	}
	for _, e := range entries {
		s, err := runs.SpecFromEntry(e, d)
		if err != nil {
			return rs, err
		}
		both := []runs.Spec{s}
		if e.Parity {
			p := parity.Pair(s)
			both = p[:]
		}
		rs.Configured = append(rs.Configured, both...)
		if e.Autostart {
			rs.Start = append(rs.Start, both...)
		} else {
			rs.Pending = append(rs.Pending, both...)
		}
	}
	return rs, nil
}

// CheckKeys checks the file's [keys] against the UI's actions; an error names the
// line of the binding it is about.
func CheckKeys(file *config.File) error {
	err := ui.CheckKeys(file.Keys)
	var ke *ui.KeyError
	if errors.As(err, &ke) {
		if line := file.KeyLine(ke.Action); line > 0 {
			return fmt.Errorf("%s:%d: [keys] %s: %s", file.Path, line, ke.Action, ke.Msg)
		}
		return fmt.Errorf("%s: [keys] %s: %s", file.Path, ke.Action, ke.Msg)
	}
	return err
}

// prefs reads the UI's kept choices in a state dir ("" for none: corral attach
// --ssh, whose state dir is on another host); a bad file is a warning.
func prefs(dir string) (ui.Prefs, string) {
	if dir == "" {
		return ui.Prefs{}, ""
	}
	path := filepath.Join(dir, ui.PrefsFile)
	p, err := ui.LoadPrefs(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: ignoring the saved layout: %v\n", err)
	}
	return p, path
}

// notRunning drops the specs the server already runs: a live run of the same name
// and command. Opening a config twice starts its runs once.
func notRunning(specs []runs.Spec, live []runs.Info) []runs.Spec {
	var out []runs.Spec
	for _, s := range specs {
		if !slices.ContainsFunc(live, func(i runs.Info) bool {
			return !i.Ended() && i.Name == s.DisplayName() && i.Spec.Shell == s.Shell &&
				slices.Equal(i.Spec.Argv, s.Argv) && i.Spec.PTY == s.PTY
		}) {
			out = append(out, s)
		}
	}
	return out
}

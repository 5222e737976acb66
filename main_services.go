package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/cli/control"
	"corral/ui/launch"
)

// Services: corral up, down and graph run a config's services in the server without
// the UI, as compose tools do (runs/cli/control/services.go).

// serviceFlags are the flags up, down and graph share.
type serviceFlags struct {
	config, procfile, stateDir string
	wait                       bool
	timeout                    time.Duration
}

func parseServiceFlags(name string, args []string, up bool) (serviceFlags, int, bool) {
	var f serviceFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&f.stateDir, "state-dir", "", "state directory")
	fs.StringVar(&f.config, "config", "", "config file (default ./corral.toml, then the user config dir)")
	fs.StringVar(&f.procfile, "procfile", "", "a Procfile: each line becomes a pipe run")
	if up {
		fs.BoolVar(&f.wait, "wait", false, "return once every run met what its dependents need (exit 1 if one never can)")
		fs.DurationVar(&f.timeout, "timeout", 0, "give up after this long (exit 124); 0 waits as long as it takes")
	}
	code, ok := parseCommand(name, fs, args, "")
	if ok && fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "corral %s: unexpected %q (corral %s --help)\n", name, fs.Arg(0), name)
		return f, exitUsage, false
	}
	return f, code, ok
}

// services loads the config the flags name: its runs to start (all of them with
// every), in start order, and where its server is.
func (f serviceFlags) services(every bool) (control.Services, control.Where, error) {
	d, entries, rs, err := launch.Load(f.config, f.procfile)
	if err == nil {
		rs, err = launch.FromEntries(rs, d, entries)
	}
	if err != nil {
		return control.Services{}, control.Where{}, err
	}
	if len(entries) == 0 {
		return control.Services{}, control.Where{}, fmt.Errorf("no runs: no config found, or it has no [[run]] (--config FILE)")
	}
	dir, err := config.ResolveStateDir(f.stateDir, d.StateDir)
	sv := control.Services{Specs: rs.Start, Needs: map[string]runs.Condition{}}
	if every {
		sv.Specs = rs.Configured
	}
	for name, c := range config.UpConditions(entries) {
		sv.Needs[name] = runs.Condition(c)
	}
	return sv, control.Where{StateDir: dir}, err
}

func cmdUp(args []string) int {
	f, code, ok := parseServiceFlags("up", args, true)
	if !ok {
		return code
	}
	sv, w, err := f.services(false)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral up: %v\n", err)
		return exitUsage
	}
	return control.Up(sv, w, f.wait, f.timeout, controlEnv())
}

func cmdDown(args []string) int {
	f, code, ok := parseServiceFlags("down", args, false)
	if !ok {
		return code
	}
	sv, w, err := f.services(true)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral down: %v\n", err)
		return exitUsage
	}
	return control.Down(sv, w, controlEnv())
}

func cmdGraph(args []string) int {
	f, code, ok := parseServiceFlags("graph", args, false)
	if !ok {
		return code
	}
	sv, w, err := f.services(true)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral graph: %v\n", err)
		return exitUsage
	}
	return control.Graph(sv, w, controlEnv())
}

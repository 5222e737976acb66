package control

import (
	"fmt"
	"io"

	"corral/config"
	"corral/runs"
	"corral/runs/agentstate"
)

// Check is corral check: the config file flag names (or the one found) validated as
// every part that reads it would read it (its TOML and keys; each run's spec, all of
// their mistakes and not only the first; the agents they name and the agent rule
// files; keys, which the UI's key map checks), then its effective configuration on
// stdout. A mistake exits 2; a warning is said and the file is still valid.
func Check(flag string, keys func(*config.File) error, stdout, stderr io.Writer) int {
	file, err := config.Find(flag)
	if err != nil {
		fmt.Fprintf(stderr, "corral check: %v\n", err)
		return ExitUsage
	}
	path := file.Path
	d := file.Apply(config.Default())
	bad := false
	for _, e := range file.Runs {
		if _, err := runs.SpecFromEntry(e, d); err != nil {
			fmt.Fprintf(stderr, "corral check: %s: %v\n", path, err)
			bad = true
		}
	}
	set, ruleErrs := agentstate.Load(agentstate.UserDir())
	for _, err := range runs.CheckAgents(path, file.Runs, set, ruleErrs) {
		fmt.Fprintf(stderr, "corral check: %v\n", err)
		bad = true
	}
	if bad {
		return ExitUsage
	}
	for _, w := range file.RunWarnings() {
		fmt.Fprintf(stderr, "corral check: warning: %s\n", w)
	}
	if err := keys(file); err != nil {
		fmt.Fprintf(stderr, "corral check: %v\n", err)
		return ExitUsage
	}
	fmt.Fprintf(stdout, "# %s is valid; effective configuration:\n%s", path, file.Effective(config.Default()))
	return ExitOK
}

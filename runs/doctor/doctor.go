// Package doctor is corral doctor: what this machine lets Corral do, and what the
// state dir's server does — how runs are owned (cgroups or sessions, and why), the
// agent rules in use and their problems, the state dir — for a user to read before
// trusting it with an afternoon of agents.
package doctor

import (
	"fmt"
	"io"
	"strings"

	"corral/config"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/client"
)

// Report writes the diagnosis and returns the exit code: 0, or 1 when something is
// wrong that a user must fix (a rule file with a mistake, a state dir that cannot be
// used).
func Report(w io.Writer, stateFlag string) int {
	code := 0
	d := config.Default()
	if path, err := config.Discover(""); err == nil && path != "" {
		if f, err := config.Load(path); err == nil {
			d = f.Apply(d)
		}
	}
	own := runs.FindCgroups(d.CgroupRoot)
	fmt.Fprintf(w, "ownership here:   %s\n", own.Reason)
	dir, err := config.ResolveStateDir(stateFlag, d.StateDir)
	if err != nil {
		fmt.Fprintf(w, "state dir:        %v\n", err)
		return 1
	}
	fmt.Fprintf(w, "state dir:        %s\n", dir)
	if c, err := client.Dial(dir); err == nil {
		h := c.Hello
		c.Close()
		fmt.Fprintf(w, "server:           pid %d, instance %s\n", h.PID, h.Instance)
		fmt.Fprintf(w, "server ownership: %s\n", orUnknown(h.Ownership))
		if h.Keeper > 0 {
			fmt.Fprintf(w, "keeper:           pid %d: the runs outlive the server (corral server --upgrade moves them to a new binary)\n", h.Keeper)
		} else {
			fmt.Fprintf(w, "keeper:           none: the runs end with the server (--no-keeper, an older Corral, or not Linux)\n")
		}
	} else {
		fmt.Fprintf(w, "server:           none running (%v)\n", err)
	}
	set, errs := agentstate.Load(agentstate.UserDir())
	fmt.Fprintf(w, "agent rules:      %s (yours: %s/*.toml)\n", strings.Join(set.Names(), ", "), agentstate.UserDir())
	for _, e := range errs {
		fmt.Fprintf(w, "  problem:        %v\n", e)
		code = 1
	}
	return code
}

func orUnknown(s string) string {
	if s == "" {
		return "not said (a server of an older Corral)"
	}
	return s
}

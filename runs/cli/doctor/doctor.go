// Package doctor is corral doctor: what this machine lets Corral do, and what the
// state dir's server does — how runs are owned (cgroups or sessions, and why), the
// agent rules in use and their problems, the state dir, the [[host]]s and the corral
// each has — for a user to read before trusting it with an afternoon of agents.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/agentstate/cliver"
	"corral/runs/api"
	"corral/runs/cli/control"
	"corral/runs/client"
	"corral/runs/keeper"
)

// Report writes the diagnosis and returns the exit code: 0, or 1 when something is
// wrong that a user must fix (a rule file with a mistake, a state dir that cannot be
// used). timeout bounds each host's answer (0: client.OutputLimit).
func Report(w io.Writer, stateFlag string, timeout time.Duration) int {
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
		if why := runs.LeaseProblemIn(dir, h.Instance); why != "" {
			// Its runs' leases run out while it lives (a full disk): corral ls says it of
			// each run, the details pane of the one shown.
			fmt.Fprintf(w, "server lease:     lease not renewed (%s); the server keeps trying\n",
				runs.Printable(why))
			code = 1
		}
		if h.Keeper > 0 {
			fmt.Fprintf(w, "keeper:           pid %d: the runs outlive the server (corral server --upgrade moves them to a new binary)\n", h.Keeper)
		} else {
			fmt.Fprintf(w, "keeper:           none: the runs end with the server (--no-keeper, an older Corral, or not Linux)\n")
		}
	} else if kd := (*client.KeeperDown)(nil); errors.As(err, &kd) {
		fmt.Fprintf(w, "server:           none: %v\n", err)
		if kd.Failures >= keeper.FailLimit {
			fmt.Fprintf(w, "keeper:           pid %d: no server came up in %d tries; it keeps the runs and goes on trying (see keeper.log and server.log)\n",
				kd.PID, kd.Failures)
			code = 1
		} else {
			fmt.Fprintf(w, "keeper:           pid %d: starting a server\n", kd.PID)
		}
	} else {
		fmt.Fprintf(w, "server:           none running (%v)\n", err)
	}
	if !hosts(w, timeout) {
		code = 1
	}
	set, errs := agentstate.Load(agentstate.UserDir())
	fmt.Fprintf(w, "agent rules:      %s (yours: %s/*.toml)\n", strings.Join(set.Names(), ", "), agentstate.UserDir())
	for _, e := range errs {
		fmt.Fprintf(w, "  problem:        %v\n", e)
		code = 1
	}
	for _, l := range agentCLIs(set.Agents(), os.Getenv("PATH")) {
		fmt.Fprintf(w, "agent CLI %-9s %s\n", l.name+":", l.text)
	}
	return code
}

// cliLine is one agent CLI found on PATH, as doctor says it.
type cliLine struct {
	name, bin string
	agent     *agentstate.Agent
	text      string
}

// versionTimeout bounds `CLI --version` when the CLI's package.json is not beside it
// (installed otherwise than by npm): a Node CLI took from 25 ms to 19 s to say its
// version on a loaded machine, and doctor must answer at once.
const versionTimeout = 2 * time.Second

// agentCLIs finds each agent's commands on path and says the version of each found and
// how it stands against the versions its rules were recorded with: read from its npm
// package's package.json (well under a millisecond), else asked with --version (all
// at once, each bounded by versionTimeout).
func agentCLIs(agents []*agentstate.Agent, path string) []cliLine {
	var lines []cliLine
	for _, a := range agents {
		for _, cmd := range a.Commands {
			if bin, err := lookPath(cmd, path); err == nil {
				lines = append(lines, cliLine{name: cmd, bin: bin, agent: a})
			}
		}
	}
	var wg sync.WaitGroup
	for i := range lines {
		l := &lines[i]
		wg.Go(func() {
			v, err := cliver.Installed(l.bin, l.agent.Packages)
			how := ""
			if err != nil {
				v, err = askVersion(l.bin)
				how = " (its --version)"
			}
			if err != nil {
				l.text = fmt.Sprintf("%s: version unknown (%v)", l.bin, err)
				return
			}
			verdict := cliver.Verdict(v, l.agent.Recorded)
			if verdict == "" {
				verdict = "no version recorded in its rules"
			} else {
				verdict += " (rules recorded with " + strings.Join(l.agent.Recorded, ", ") + ")"
			}
			l.text = fmt.Sprintf("%s %s%s: %s", l.bin, v, how, verdict)
		})
	}
	wg.Wait()
	return lines
}

// lookPath is exec.LookPath over path rather than the process's PATH (on Windows,
// npm's shims are NAME.cmd).
func lookPath(cmd, path string) (string, error) {
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = []string{".exe", ".cmd"}
	}
	for _, dir := range filepath.SplitList(path) {
		for _, ext := range exts {
			if dir == "" {
				continue
			}
			p := filepath.Join(dir, cmd+ext)
			if st, err := os.Stat(p); err == nil && !st.IsDir() && (st.Mode()&0o111 != 0 || ext != "") {
				return p, nil
			}
		}
	}
	return "", exec.ErrNotFound
}

var versionRe = regexp.MustCompile(`\d+\.\d+\.\d+`)

// askVersion runs bin --version, bounded by versionTimeout, and finds the version in
// what it says.
func askVersion(bin string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	v := versionRe.FindString(string(out))
	if v == "" {
		return "", fmt.Errorf("%s --version said no version: %.60q", bin, out)
	}
	return v, nil
}

// hosts says, for each [[host]] of the config, whether it is reached over ssh and
// with which corral there (its `corral version`: the binary and protocol, beside this
// one's), all at once; false when one is not reached or speaks another protocol.
// Nothing is started there. Each is given timeout (0: client.OutputLimit).
func hosts(w io.Writer, timeout time.Duration) bool {
	hs, err := control.UserHosts()
	if err != nil {
		fmt.Fprintf(w, "hosts:            %v\n", err)
		return false
	}
	if len(hs) == 0 {
		return true
	}
	here := fmt.Sprintf("corral %s (protocol %d)", api.Binary, api.Version)
	lines := make([]string, len(hs))
	ok := make([]bool, len(hs))
	var wg sync.WaitGroup
	for i, h := range hs {
		wg.Go(func() {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if timeout > 0 {
				ctx, cancel = context.WithTimeout(ctx, timeout)
			}
			defer cancel()
			out, err := h.OutputContext(ctx, "version")
			there := strings.TrimSpace(string(out))
			switch {
			case err != nil:
				lines[i] = err.Error()
			case there == here:
				lines[i], ok[i] = there+", as here", true
			case !strings.Contains(there, "(protocol "):
				lines[i] = there + ", here " + here + ": an older corral, which does not say its protocol (install this one there)"
			case strings.Contains(there, fmt.Sprintf("(protocol %d)", api.Version)):
				lines[i], ok[i] = there+", here "+here, true
			default:
				lines[i] = there + ", here " + here + ": another protocol (corral server --upgrade there with this one's binary, or this one with that)"
			}
		})
	}
	wg.Wait()
	all := true
	for i, h := range hs {
		fmt.Fprintf(w, "host %-12s ssh %s: %s\n", h.Name+":", h.SSH, lines[i])
		all = all && ok[i]
	}
	return all
}

func orUnknown(s string) string {
	if s == "" {
		return "not said (a server of an older Corral)"
	}
	return s
}

// main.go is corral's command table (every command and verb declared once, in table)
// and the process's entry (main, dispatch, help). The commands' flags, usage texts
// and exit codes are in the other main_*.go files (main_run.go: run, spawn, parity
// and corral run's exit codes; main_ui.go; main_commands.go; main_services.go;
// main_web.go); their work is done by the package whose job it is.

// GOMAXPROCS is set once, at start, from the CPUs and the cgroup's limit: the Go
// runtime would otherwise read them again every second its monitor thread is awake,
// which an idle server or UI pays for on every wake-up, for a limit that does not
// change under a terminal program.
//
//go:debug updatemaxprocs=0

// Command corral operates supervised runs from a terminal. This package is the CLI's
// entry only: it parses flags, dispatches each command of its table to the package
// whose job it is (runs/cli/foreground, ui/launch, runs/server, runs/cli/control and
// the other bodies under runs/cli) and maps their results to exit codes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"

	"corral/demo"
	"corral/runs/api"
	"corral/runs/cli"
	"corral/runs/cli/control"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// usageHead, verbsHead and usageTail are corral --help around the table's commands
// and verbs.
const usageHead = `usage: corral [--config FILE | --procfile FILE] [--state-dir DIR] [--escape-policy own|fail] [-- CMD [ARGS...]]
       corral <command> [flags]

With no command, corral opens the terminal UI with the runs of ./corral.toml (or --config,
$CORRAL_CONFIG, the user config dir); with -- CMD, with that one PTY run started.

commands:
`

const verbsHead = `
The server (one per state dir, started by the first spawn) keeps runs alive when every
terminal is gone; these verbs drive it, for scripts and agents:
`

const usageTail = `
'corral help COMMAND' (or COMMAND --help) tells one command's flags; 'corral run --help'
also the exit codes.
`

// usage is corral --help: the commands, then the verbs, from the table.
func usage() string {
	return usageHead + table.Lines(cli.Own) + verbsHead + table.Lines(cli.Verb) + control.VerbsNote +
		table.Lines(cli.Last) + usageTail
}

func main() {
	demo.MaybeChild() // the binary doubles as the demo's and tests' child programs
	api.Binary = version
	stop := profileCPU(os.Getenv("CORRAL_CPUPROFILE"))
	code := dispatch(os.Args[1:])
	stop()
	os.Exit(code)
}

// profileCPU writes a CPU profile of the whole process to path when it is set: how the
// idle and streaming figures of BENCHMARKS.md were taken apart (go tool pprof).
func profileCPU(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: CORRAL_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// table is every corral command, each declared once: its line in corral --help, its
// --help, and the function that runs it. help, version and spawn come first: among
// names equally close to a mistyped one, did-you-mean names the earliest.
var table cli.Table

func init() {
	table = cli.Table{
		{Name: "help", Synopsis: "[COMMAND]", Summary: "corral --help, or one command's help", Part: cli.Unlisted, Run: cmdHelp},
		{Name: "version", Summary: "print the version", Part: cli.Last, Run: cmdVersion},
		{Name: "spawn", Synopsis: "[run flags] -- CMD [ARGS...]", Summary: "start a run in the server (started if needed); prints its id", Part: cli.Verb, Run: cmdSpawn},
		{Name: "demo", Synopsis: "[--autoplay]", Summary: "open the UI on the built-in demo scenario", Run: cmdDemo},
		{Name: "check", Synopsis: "[FILE]", Summary: "validate a config file and print the effective config", Run: cmdCheck},
		{Name: "replay", Synopsis: "[--speed N] FILE.cast|RUN", Summary: "play a recording (a run's, by id or name) in a pane", Run: cmdReplay},
		{Name: "export", Synopsis: "[flags] FILE.cast|RUN OUT.svg|OUT.gif|OUT.png", Summary: "a recording (a run's, by id or name) as an animated SVG or GIF, or a\n" +
			"still picture (--at, --last), drawn as its pane showed it", Run: cmdExport},
		{Name: "run", Synopsis: "[flags] -- CMD [ARGS...]", Summary: "run one command under supervision in the foreground", Run: cmdRun},
		{Name: "parity", Synopsis: "[flags] -- CMD [ARGS...]", Summary: "run it in a PTY and with pipes at once; show what differs", Run: cmdParity},
		{Name: "ls", Synopsis: "[--json] [--all] [--host H] [--timeout DUR]", Summary: "list the runs in the registry (and every [[host]]'s)", Run: cmdLs},
		{Name: "reconcile", Synopsis: "[--json]", Summary: "close, reap or leave alone the runs of dead Corral instances", Run: cmdReconcile},
		{Name: "attach", Synopsis: "[--state-dir DIR] [--ssh HOST]", Summary: "open the UI on the state dir's server (started if needed);\n" +
			"quitting detaches: its runs keep running; --ssh HOST: the server\non HOST (over ssh HOST corral proxy)", Run: cmdAttach},
		{Name: "web", Synopsis: "[--listen ADDR] [--read-only] [--token-file F] [--exposed] [--host NAMES] [--ssh HOST]", Summary: "serve the runs to a browser: the list, each run's screen, keys and answers;\n" +
			"a client of the state dir's server (started if needed) and every host's, as attach, token required", Run: cmdWeb},
		{Name: "up", Synopsis: "[--config FILE] [--wait] [--timeout DUR]", Summary: "start the config's runs in the server without the UI, each\n" +
			"after what it depends on; --wait: until each met what its\n" +
			"dependents need (started, ready or succeeded)", Run: cmdUp},
		{Name: "down", Synopsis: "[--config FILE]", Summary: "end the config's runs in the server, dependents first", Run: cmdDown},
		{Name: "graph", Synopsis: "[--config FILE]", Summary: "the config's runs, what each waits for, and their state", Run: cmdGraph},
		{Name: "proxy", Synopsis: "[--state-dir DIR] [--start]", Summary: "bridge stdin/stdout to this host's running server (what --ssh runs)", Run: cmdProxy},
		{Name: "server", Synopsis: "[--state-dir DIR] [--upgrade] [--window-size POLICY]", Summary: "run the state dir's server in the foreground (for systemd), under its keeper\n" +
			"so its runs outlive it; --upgrade: hand the running server's runs to\na server of this binary, no run ends; --window-size: the size of a run\n" +
			"several attached UIs show: latest, smallest or largest ([ui] window_size)", Run: cmdServer},
		{Name: "doctor", Synopsis: "[--state-dir DIR] [--timeout D]", Summary: "how runs are owned here and by the server (cgroups or sessions), and why", Run: cmdDoctor},
	}
	table = append(table, control.Commands(controlEnv)...)
}

// parseCommand parses the flags of command name the one way (cli.ParseFlags):
// --help prints help (or the command's synopsis, summary and flags) to stdout and
// ends the command with 0; a mistake is one line on stderr and ends it with 2.
func parseCommand(name string, fs *flag.FlagSet, args []string, help string) (code int, ok bool) {
	err := cli.ParseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if help == "" {
			help = commandHelp(name, fs)
		}
		fmt.Print(help)
		return 0, false
	case err != nil:
		cmd := strings.TrimSuffix("corral "+name, " corral") // the UI's flags are corral's own
		fmt.Fprintf(os.Stderr, "%s: %v (%s --help)\n", cmd, err, cmd)
		return exitUsage, false
	}
	return 0, true
}

// commandHelp is a command's --help: its synopsis, what it does, and its flags.
func commandHelp(name string, fs *flag.FlagSet) string {
	c, _ := table.Find(name)
	return c.Help(fs)
}

// cmdHelp is corral help [COMMAND]: the whole usage, or one command's help (its
// --help).
func cmdHelp(args []string) int {
	if len(args) == 0 {
		fmt.Print(usage())
		return 0
	}
	if args[0] == "-h" || args[0] == "--help" {
		args[0] = "help"
	}
	if c, ok := table.Find(args[0]); ok {
		if c.Name == "help" {
			fmt.Print(commandHelp("help", nil))
			return 0
		}
		return c.Run([]string{"--help"})
	}
	fmt.Fprintf(os.Stderr, "corral help: %s\n", table.Unknown(args[0]))
	return exitUsage
}

// cmdVersion is corral version (and corral --version).
func cmdVersion(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Print(commandHelp("version", nil))
		return 0
	}
	fmt.Printf("corral %s (protocol %d)\n", version, api.Version)
	return 0
}

// dispatch runs the command args name (with none, or a flag first, the UI) and
// returns the process's exit code.
func dispatch(args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "--version" {
		return cmdUI(args)
	}
	name := map[string]string{"-h": "help", "--help": "help", "--version": "version"}[args[0]]
	if name == "" {
		name = args[0]
	}
	if c, ok := table.Find(name); ok {
		return c.Run(args[1:])
	}
	fmt.Fprintf(os.Stderr, "corral: %s\n", table.Unknown(args[0]))
	return exitUsage
}

package runs

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode"

	"corral/config"
	"corral/runs/workspace"
)

// Spec is what to run and how. A run is either Argv (exec'd directly) or Shell (one
// command line for $SHELL -c); the two are never converted into each other, because
// joining argv into a line re-splits quoted arguments (an OpenClaw trap).
type Spec struct {
	Name  string   `json:"name"`
	Argv  []string `json:"argv,omitempty"`
	Shell string   `json:"shell,omitempty"`
	PTY   bool     `json:"pty"`
	Dir   string   `json:"cwd,omitempty"`
	Env   []string `json:"env,omitempty"` // additions, KEY=VALUE
	// BaseEnv, when set, is the environment the run starts from instead of the
	// supervisor's own: a client of the server sends its own, so a run spawned from a
	// shell sees that shell's PATH and variables, not those of whichever client
	// happened to start the server. PATH and SHELL are looked up in it too. It is
	// never written to the registry nor sent with events (it holds the user's secrets).
	BaseEnv []string `json:"-"`

	Cols uint16 `json:"cols,omitempty"` // PTY size; 0 takes the default
	Rows uint16 `json:"rows,omitempty"`
	// FixedSize keeps a PTY run at its own size: the UI does not fit it to the pane,
	// and a size the child sets on its terminal itself is taken up (the screen and the
	// recording follow it). corral replay uses it to play a recording at its size.
	FixedSize bool `json:"fixed_size,omitempty"`

	// Agent names the agent whose rules tell the run's state (runs/agentstate): ""
	// recognises it from the command (claude, npx @openai/codex, …), AgentNone turns
	// detection off.
	Agent string `json:"agent,omitempty"`

	// Pair marks the two runs of a PTY/pipe comparison (corral parity, the UI's parity
	// kind): the same value on both, "" otherwise.
	Pair string `json:"pair,omitempty"`

	// Restore starts the run again after a reboot (corral restore) though it is no
	// agent with a conversation to resume: the config entry's restore = true.
	Restore bool `json:"restore,omitempty"`

	// Worktree, when set, gives the run a git worktree of its own (package
	// runs/workspace): made before the run starts, the run started in it.
	Worktree *WorktreeSpec `json:"worktree,omitempty"`

	// Escape is what happens when a process leaves the run's session: own (default;
	// warn is its old name) makes it the run's — recorded with its command line, shown,
	// ended with the run, reaped by a reconcile; fail ends the run with
	// ownership-escape, for strict use.
	Escape EscapePolicy `json:"escape_policy,omitempty"`

	// Restart is its restart policy (nil: never restarted); Ready its readiness probe
	// and Alive its liveness probe (nil: none). A run with any is a service (service.go).
	Restart *RestartSpec  `json:"restart,omitempty"`
	Ready   *config.Probe `json:"ready,omitempty"`
	Alive   *config.Probe `json:"alive,omitempty"`
	// DependsOn are the runs (by name, in the same server) that must meet a condition
	// before this one starts; until then it waits, without a process (depends.go).
	DependsOn []Dependency `json:"depends_on,omitempty"`
	// OnDependencyLost is what happens to the started run when a dependency stops
	// meeting its condition: "" nothing, DepLostRestart ends it (dependency-lost) and
	// starts its spec again, to wait anew.
	OnDependencyLost string `json:"on_dependency_lost,omitempty"`

	// In JSON as timeout_ms, no_output_timeout_ms and grace_ms (spec_json.go).
	Timeout         time.Duration  `json:"-"`                     // overall; 0 is off
	NoOutputTimeout time.Duration  `json:"-"`                     // 0 is derived from Timeout; < 0 is off
	Grace           time.Duration  `json:"-"`                     // 0 takes the default
	StopSignal      syscall.Signal `json:"stop_signal,omitempty"` // 0 takes the default

	// Stdout and Stderr, when set, receive a copy of the run's output as it is read
	// (PTY output all goes to Stdout). They are written from the reader goroutine, so a
	// slow writer slows the run the way a slow pipe would; corral run uses them to
	// stream losslessly. Nil for runs nobody streams.
	Stdout io.Writer `json:"-"`
	Stderr io.Writer `json:"-"`
}

// WorktreeSpec is how a run's worktree is made: every field may be empty.
type WorktreeSpec struct {
	Branch string `json:"branch,omitempty"` // "": corral/<run name>, made unique
	Base   string `json:"base,omitempty"`   // "": HEAD of the repository holding the run's directory
	Root   string `json:"root,omitempty"`   // where worktrees go; "": the config's worktree_root
	// Setup is shell command lines run in the new worktree, in order, before the
	// program; their output is the run's first output. Nil takes the repository's
	// (its corral.toml's [worktree] setup), else the server config's.
	Setup []string `json:"setup,omitempty"`
	// Use, when set, is an existing worktree the run starts in (a restored run's):
	// nothing is made and no setup step runs.
	Use *workspace.Worktree `json:"use,omitempty"`
}

// EscapePolicy is own (warn) or fail.
type EscapePolicy string

const (
	// EscapeOwn, the default: an escapee is owned, not fatal. Agents such as codex
	// fork a managed daemon out of their session at start; ending the run for it made
	// Corral unusable with them.
	EscapeOwn EscapePolicy = config.EscapeOwn
	// EscapeWarn is the name EscapeOwn had before it became the default; configs and
	// scripts that say warn keep working and mean the same.
	EscapeWarn EscapePolicy = config.EscapeWarn
	// EscapeFail ends the run with ownership-escape at the first escapee.
	EscapeFail EscapePolicy = config.EscapeFail
)

// ParseEscapePolicy reads a policy as the CLI and the new-run form take it; "" is the
// default (own).
func ParseEscapePolicy(s string) (EscapePolicy, error) {
	switch p := EscapePolicy(strings.TrimSpace(s)); p {
	case "":
		return EscapeOwn, nil
	case EscapeOwn, EscapeWarn, EscapeFail:
		return p, nil
	}
	return "", fmt.Errorf("%w: escape policy %q (want own, warn or fail)", ErrBadSpec, s)
}

// StateDirEnv is set in the environment of a run of a supervisor with a registry: its
// state dir, where `corral hook` run by the run's agent finds the server.
const StateDirEnv = "CORRAL_RUN_STATE_DIR"

// AgentNone as a Spec's Agent: no agent-state detection for the run.
const AgentNone = "none"

// RunIDEnv is set in every run's environment to its run id, and inherited by its
// descendants: `corral hook` finds its run by it. It is public (corral ls prints it)
// and proves nothing: a live Corral never attributes by it (any run could set another
// run's id), and a reconcile never claims a process for carrying it (a process the
// user started with a copied id would be reaped).
const RunIDEnv = "CORRAL_RUN_ID"

// RunSecretEnv is set in every run's environment to the run's secret: 128 random bits
// kept only there and in the run's record (0600 in the 0700 state dir), never in ls,
// events, logs or reports. What a Corral that did not start a run may signal of it
// (a reconcile after a crash, an adopted run) must carry it (reaper.Claim): a forged
// record cannot name a process that carries a secret nobody forging it could know.
const RunSecretEnv = "CORRAL_RUN_SECRET"

// Kind is how a run talks to its program: a PTY, or plain pipes.
type Kind string

// The two kinds, as JSON and the UI write them.
const (
	KindPTY  Kind = "pty"
	KindPipe Kind = "pipe"
)

// Kind is the spec's kind.
func (s Spec) Kind() Kind {
	if s.PTY {
		return KindPTY
	}
	return KindPipe
}

func (s Spec) validate() error {
	switch {
	case s.Name != "" && checkName(s.Name) != nil:
		return fmt.Errorf("%w: %w", ErrBadSpec, checkName(s.Name))
	case len(s.Argv) > 0 && s.Shell != "":
		return fmt.Errorf("%w: both argv and a shell command line", ErrBadSpec)
	case len(s.Argv) == 0 && strings.TrimSpace(s.Shell) == "":
		return fmt.Errorf("%w: no command", ErrBadSpec)
	case len(s.Argv) > 0 && s.Argv[0] == "":
		return fmt.Errorf("%w: empty program name", ErrBadSpec)
	case s.Timeout < 0:
		return fmt.Errorf("%w: negative timeout", ErrBadSpec)
	case s.Grace < 0:
		return fmt.Errorf("%w: negative grace", ErrBadSpec)
	case s.Escape != "" && s.Escape != EscapeOwn && s.Escape != EscapeFail && s.Escape != EscapeWarn:
		return fmt.Errorf("%w: escape policy %q (want own, warn or fail)", ErrBadSpec, s.Escape)
	}
	if err := s.Restart.validate(); err != nil {
		return err
	}
	for _, p := range []*config.Probe{s.Ready, s.Alive} {
		if p == nil {
			continue
		}
		if err := config.CheckProbe(*p); err != nil {
			return fmt.Errorf("%w: %w", ErrBadSpec, err)
		}
	}
	return s.validateDeps()
}

// withDefaults fills the zero fields from d and names the run after its command.
func (s Spec) withDefaults(d config.Defaults) Spec {
	if s.Name == "" {
		s.Name = defaultName(s)
	}
	if s.Cols == 0 || s.Rows == 0 {
		s.Cols, s.Rows = d.Cols, d.Rows
	}
	s.Cols, s.Rows = clampSize(s.Cols, s.Rows)
	if s.Grace == 0 {
		s.Grace = d.Grace
	}
	if s.StopSignal == 0 {
		s.StopSignal = d.StopSignal
	}
	if s.Escape == "" {
		s.Escape = EscapePolicy(d.EscapePolicy)
	}
	if s.Escape == "" || s.Escape == EscapeWarn {
		s.Escape = EscapeOwn // one name for one behaviour in records and reports
	}
	return s
}

// DisplayName is the name the run will have: Name, or the one derived from its command.
func (s Spec) DisplayName() string {
	if s.Name != "" {
		return s.Name
	}
	return strings.Map(func(r rune) rune { // a program's name may hold anything
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, defaultName(s))
}

func defaultName(s Spec) string {
	if len(s.Argv) > 0 {
		return programName(s.Argv)
	}
	return programName(strings.Fields(s.Shell))
}

// command builds the exec.Cmd for run id. Stdio and SysProcAttr are left to the host.
func (s Spec) command(d config.Defaults, id string) *exec.Cmd {
	env := os.Environ()
	if s.BaseEnv != nil {
		env = slices.Clone(s.BaseEnv)
	}
	var cmd *exec.Cmd
	if s.Shell != "" {
		cmd = exec.Command(shellIn(env), "-c", s.Shell)
	} else {
		cmd = exec.Command(s.program(env), s.Argv[1:]...)
		cmd.Args[0] = s.Argv[0]
	}
	cmd.Dir = s.dir(env)
	env = runEnv(env, s.PTY, d.Term) // Corral's terminal, not the host's (env.go)
	cmd.Env = append(append(env, s.Env...), RunIDEnv+"="+id)
	return cmd
}

// HomeRelative reports whether dir is a run's directory relative to the home directory
// of the machine it runs on ("~" or "~/…"): a spawn on another host names one there.
func HomeRelative(dir string) bool { return dir == "~" || strings.HasPrefix(dir, "~/") }

// dir is the directory to run in: Dir, a leading ~ the home directory of env's user
// ($HOME there, else this process's user's).
func (s Spec) dir(env []string) string {
	if !HomeRelative(s.Dir) {
		return s.Dir
	}
	home := envValue(env, "HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, strings.TrimPrefix(s.Dir, "~"))
}

// program is the path to exec for Argv[0]: found in BaseEnv's PATH when the spec has
// one (exec.Command would search the supervisor's), else left to exec.Command.
func (s Spec) program(env []string) string {
	name := s.Argv[0]
	if s.BaseEnv == nil || strings.Contains(name, "/") {
		return name
	}
	for _, dir := range filepath.SplitList(envValue(env, "PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.dir(env), p)
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return name // not there: exec.Command's own search reports it
}

// envValue is the value of key in env ("" if unset); the last assignment wins.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// shellIn is env's $SHELL, falling back to /bin/sh.
func shellIn(env []string) string {
	if sh := envValue(env, "SHELL"); sh != "" {
		return sh
	}
	return "/bin/sh"
}

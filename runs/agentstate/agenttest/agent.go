package agenttest

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"corral/runs/agentstate/cliver"
)

// ErrMissing is returned by Locate when a CLI is not installed; its message says how
// to install it, so a test can skip with it as it is.
var ErrMissing = errors.New("agent CLI not installed")

// PrefixEnv overrides the npm prefix the CLIs are looked for under (its bin/). The
// CLIs there must be the versions the corpus was recorded with (Agent.Version).
const PrefixEnv = "CORRAL_AGENTS_PREFIX"

// LatestEnv names another npm prefix whose CLIs the tests run whatever their version:
// the drift check (make agents-latest) installs the newest versions there. It takes
// the place of PrefixEnv.
const LatestEnv = "CORRAL_AGENTS_LATEST"

// ErrVersion is returned by Locate when the CLI installed is another version than
// the one the tests are pinned to.
var ErrVersion = errors.New("agent CLI of another version than the recorded one")

// Agent is one coding-agent CLI this package can run offline.
type Agent struct {
	Name    string // claude, codex, gemini, opencode: the corpus file names
	Binary  string // the command npm installs
	Package string // npm package
	Version string // the version the corpus was recorded with, which the tests run
	// prepare writes the CLI's offline home under root and returns how to start it.
	prepare func(bin string, l layout, url string) (Launch, error)
}

// Launch is how to start an agent: Argv and Dir for runs.Spec, Env as its BaseEnv (a
// small environment of its own: nothing from the caller's, no real key, reaches the
// CLI). Settings lists the variables and config lines that matter, for the record.
// Version is the installed CLI's (its package.json).
type Launch struct {
	Argv     []string
	Env      []string
	Dir      string
	Settings map[string]string
	Version  string
}

// Agents are the CLIs the corpus covers, in the order the recorder records them.
var Agents = []Agent{
	{Name: "claude", Binary: "claude", Package: "@anthropic-ai/claude-code", Version: "2.1.197",
		prepare: prepareClaude},
	{Name: "codex", Binary: "codex", Package: "@openai/codex", Version: "0.169.0",
		prepare: prepareCodex},
	{Name: "gemini", Binary: "gemini", Package: "@google/gemini-cli", Version: "0.61.0",
		prepare: prepareGemini},
	{Name: "opencode", Binary: "opencode", Package: "opencode-ai", Version: "1.18.33",
		prepare: prepareOpencode},
}

// Lookup returns the agent named name.
func Lookup(name string) (Agent, bool) {
	for _, a := range Agents {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}

// DefaultPrefix is the npm prefix the CLIs are run from: $CORRAL_AGENTS_LATEST (any
// version), else $CORRAL_AGENTS_PREFIX, else ~/agents, where record.sh installs them.
// Not under /tmp: codex refuses to run helper binaries from a temp dir. The PATH is not
// looked at: what a machine happens to have there must not change what a test tests.
func DefaultPrefix() string {
	if p := os.Getenv(LatestEnv); p != "" {
		return p
	}
	if p := os.Getenv(PrefixEnv); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "/root/agents"
	}
	return filepath.Join(home, "agents")
}

// Locate finds the agent's binary in DefaultPrefix()/bin and its version (its npm
// package's package.json). Under $CORRAL_AGENTS_PREFIX or ~/agents it must be the
// recorded version (ErrVersion otherwise, saying how to install that one or to ask for
// this one with $CORRAL_AGENTS_LATEST).
func (a Agent) Locate() (bin, version string, err error) {
	p := filepath.Join(DefaultPrefix(), "bin", a.Binary)
	if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return "", "", fmt.Errorf("%w: %s is not in %s; install it with "+
			"npm install -g --prefix %s %s@%s (or set %s)", ErrMissing, a.Binary,
			filepath.Dir(p), DefaultPrefix(), a.Package, a.Version, PrefixEnv)
	}
	version, err = cliver.Installed(p, []string{a.Package})
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrMissing, p, err)
	}
	if os.Getenv(LatestEnv) == "" && version != a.Version {
		return "", "", fmt.Errorf("%w: %s is %s %s; the tests are pinned to %s, the version the corpus "+
			"was recorded with (npm install -g --prefix DIR %s@%s and %s=DIR), or run this one with %s=%s",
			ErrVersion, p, a.Package, version, a.Version, a.Package, a.Version, PrefixEnv, LatestEnv, DefaultPrefix())
	}
	return p, version, nil
}

// Need returns the agent's binary, or skips the test with Locate's message (how to
// install it) when the CLI is not installed or is not the pinned version. It logs the
// version it runs.
func (a Agent) Need(tb testing.TB) string {
	tb.Helper()
	bin, version, err := a.Locate()
	if err != nil {
		tb.Skip(err)
	}
	tb.Logf("%s %s (%s)", a.Package, version, bin)
	return bin
}

// Prepare writes a fresh offline home for the agent under root (emptied first) with
// the project dir root/project, pointed at the model server at url, which is also
// its proxy for every other address (ProxyEnv).
func (a Agent) Prepare(root, url string) (Launch, error) {
	bin, version, err := a.Locate()
	if err != nil {
		return Launch{}, err
	}
	if err := os.RemoveAll(root); err != nil {
		return Launch{}, err
	}
	l := layout{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), version: version}
	for _, d := range []string{l.home, l.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Launch{}, err
		}
	}
	launch, err := a.prepare(bin, l, url)
	if err != nil {
		return Launch{}, err
	}
	launch.Version = version
	proxy := ProxyEnv(url)
	launch.Env = withSettings(launch.Env, proxy)
	maps.Copy(launch.Settings, proxy)
	return launch, nil
}

// layout is where an agent's private files live, and the version of the CLI.
type layout struct{ root, home, project, version string }

// baseEnv is the small environment every agent starts from: a PATH that finds the
// agent and node, its own HOME, a UTF-8 locale. Corral adds TERM, COLORTERM and
// TERM_PROGRAM (runs/env.go).
func baseEnv(bin string, l layout) []string {
	path := []string{filepath.Dir(bin)}
	if node, err := exec.LookPath("node"); err == nil {
		path = append(path, filepath.Dir(node))
	}
	path = append(path, "/usr/local/bin", "/usr/bin", "/bin")
	return []string{"PATH=" + strings.Join(path, ":"), "HOME=" + l.home, "USER=corral",
		"LOGNAME=corral", "SHELL=/bin/bash", "LANG=C.UTF-8", "TZ=UTC"}
}

// withSettings appends the settings' environment variables to env.
func withSettings(env []string, vars map[string]string) []string {
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		env = append(env, k+"="+vars[k])
	}
	return env
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

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
)

// ErrMissing is returned by Locate when a CLI is not installed; its message says how
// to install it, so a test can skip with it as it is.
var ErrMissing = errors.New("agent CLI not installed")

// PrefixEnv overrides the npm prefix the CLIs are looked for under (its bin/).
const PrefixEnv = "CORRAL_AGENTS_PREFIX"

// Agent is one coding-agent CLI this package can run offline.
type Agent struct {
	Name    string // claude, codex, gemini, opencode: the corpus file names
	Binary  string // the command npm installs
	Package string // npm package
	Version string // the version the corpus was recorded with
	// prepare writes the CLI's offline home under root and returns how to start it.
	prepare func(bin string, l layout, url string) (Launch, error)
}

// Launch is how to start an agent: Argv and Dir for runs.Spec, Env as its BaseEnv (a
// small environment of its own: nothing from the caller's, no real key, reaches the
// CLI). Settings lists the variables and config lines that matter, for the record.
type Launch struct {
	Argv     []string
	Env      []string
	Dir      string
	Settings map[string]string
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

// DefaultPrefix is the npm prefix record.sh installs into: $CORRAL_AGENTS_PREFIX, else
// ~/agents. Not under /tmp: codex refuses to run helper binaries from a temp dir.
func DefaultPrefix() string {
	if p := os.Getenv(PrefixEnv); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "/root/agents"
	}
	return filepath.Join(home, "agents")
}

// Locate finds the agent's binary: in PATH, then in DefaultPrefix()/bin.
func (a Agent) Locate() (string, error) {
	if p, err := exec.LookPath(a.Binary); err == nil {
		return filepath.Abs(p)
	}
	p := filepath.Join(DefaultPrefix(), "bin", a.Binary)
	if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		return p, nil
	}
	return "", fmt.Errorf("%w: %s is not in PATH nor in %s; install it with "+
		"npm install -g --prefix %s %s@%s (or set %s)", ErrMissing, a.Binary,
		filepath.Dir(p), DefaultPrefix(), a.Package, a.Version, PrefixEnv)
}

// Need returns the agent's binary, or skips the test with Locate's message (how to
// install it) when the CLI is not installed.
func (a Agent) Need(tb testing.TB) string {
	tb.Helper()
	bin, err := a.Locate()
	if err != nil {
		tb.Skip(err)
	}
	return bin
}

// Prepare writes a fresh offline home for the agent under root (emptied first) with
// the project dir root/project, pointed at the model server at url, which is also
// its proxy for every other address (ProxyEnv).
func (a Agent) Prepare(root, url string) (Launch, error) {
	bin, err := a.Locate()
	if err != nil {
		return Launch{}, err
	}
	if err := os.RemoveAll(root); err != nil {
		return Launch{}, err
	}
	l := layout{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project")}
	for _, d := range []string{l.home, l.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Launch{}, err
		}
	}
	launch, err := a.prepare(bin, l, url)
	if err != nil {
		return Launch{}, err
	}
	proxy := ProxyEnv(url)
	launch.Env = withSettings(launch.Env, proxy)
	maps.Copy(launch.Settings, proxy)
	return launch, nil
}

// layout is where an agent's private files live.
type layout struct{ root, home, project string }

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

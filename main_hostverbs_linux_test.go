package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
	"corral/runs/client/sshtest"
)

// hosts is a test's machines: real sshds (runs/client/sshtest), a config whose
// [[host]] entries name them, and a local state dir of its own.
type hosts struct {
	t     testing.TB
	fleet *sshtest.Fleet
	env   []string // CORRAL_SSH, CORRAL_CONFIG, CORRAL_STATE_DIR
}

// startHosts starts an sshd per name and writes a config naming each as a
// [[host]] whose corral is the test's binary (sshd's sessions do not have it on
// their PATH), plus extra entries.
func startHosts(t testing.TB, extra string, names ...string) *hosts {
	t.Helper()
	f := sshtest.Start(t, names...)
	var cfg strings.Builder
	for _, n := range names {
		fmt.Fprintf(&cfg, "[[host]]\nname = %q\nssh = %q\ncorral = %q\n\n", n, n, corralBin)
	}
	cfg.WriteString(extra)
	path := filepath.Join(t.TempDir(), "corral.toml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return &hosts{t: t, fleet: f, env: []string{"CORRAL_SSH=" + f.SSH, "CORRAL_CONFIG=" + path, "CORRAL_STATE_DIR=" + serverState(t)}}
}

func (h *hosts) corral(args ...string) result {
	h.t.Helper()
	cmd := exec.Command(corralBin, args...)
	cmd.Env = append(os.Environ(), h.env...)
	return run(h.t, cmd)
}

// pollUntil polls run on host until its output so far contains want.
func (h *hosts) pollUntil(host, run, want string) {
	h.t.Helper()
	var got strings.Builder
	eventually.True(h.t, 20*time.Second, fmt.Sprintf("%q from %s on %s", want, run, host), func() bool {
		r := h.corral("poll", "--host", host, "--wait", "2s", run)
		got.WriteString(r.stdout)
		if r.code != 0 {
			h.t.Fatalf("poll --host %s %s: %+v", host, run, r)
		}
		return strings.Contains(got.String(), want)
	})
}

// lsRow matches corral ls's row of a run on a host: HOST ID NAME KIND STATE.
func lsRow(host, name, kind, state string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^` + host + `\s+r\S+\s+` + name + `\s+` + kind + `\s+` + state + `\s`)
}

// The control verbs through real OpenSSH: runs spawned on two hosts live in each
// host's own server and registry; send-keys, poll, kill and wait reach the right
// one; ls lists both beside their host (--host narrows); a host whose sshd stops
// is one line on stderr and exit 1 while the other is still listed, and its runs
// are there again once it is back (its server outlived the connection).
func TestHostsVerbsOverSSH(t *testing.T) {
	h := startHosts(t, "", "alpha", "beta")
	sp := h.corral("spawn", "--host", "alpha", "--pty", "--name", "echoer", "--shell", "--", `while read l; do echo "got $l"; done`)
	if sp.code != 0 {
		t.Fatalf("spawn --host alpha: %+v", sp)
	}
	if sp := h.corral("spawn", "--host", "beta", "--name", "sleeper", "--shell", "--", `echo "beta-up in $(pwd)"; exec sleep 600`); sp.code != 0 {
		t.Fatalf("spawn --host beta: %+v", sp)
	}
	if r := h.corral("send-keys", "--host", "alpha", "echoer", "hello", "Enter"); r.code != 0 {
		t.Fatalf("send-keys: %+v", r)
	}
	h.pollUntil("alpha", "echoer", "got hello")
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	h.pollUntil("beta", "sleeper", "beta-up in "+me.HomeDir) // nothing of this machine's: its home there
	id := strings.TrimSpace(sp.stdout)
	if _, err := os.Stat(filepath.Join(h.fleet.Host("alpha").StateDir, "runs", id+".json")); err != nil {
		t.Errorf("the run is not in alpha's registry: %v", err)
	}
	if r := h.corral("poll", "--host", "beta", "echoer"); r.code != 1 || !strings.Contains(r.stderr, "echoer") {
		t.Errorf("beta knows alpha's run: %+v", r)
	}

	ls := h.corral("ls")
	if ls.code != 0 || !strings.HasPrefix(ls.stdout, "HOST") || !lsRow("alpha", "echoer", "pty", "running").MatchString(ls.stdout) ||
		!lsRow("beta", "sleeper", "pipe", "running").MatchString(ls.stdout) {
		t.Errorf("ls across hosts: %+v", ls)
	}
	if r := h.corral("ls", "--host", "beta"); r.code != 0 || strings.Contains(r.stdout, "echoer") ||
		!lsRow("beta", "sleeper", "pipe", "running").MatchString(r.stdout) {
		t.Errorf("ls --host beta: %+v", r)
	}
	checkLsJSON(t, h.corral("ls", "--json"), map[string]string{"echoer": "alpha", "sleeper": "beta"})

	if r := h.corral("kill", "--host", "alpha", "echoer"); r.code != 0 {
		t.Fatalf("kill: %+v", r)
	}
	if r := h.corral("wait", "--host", "alpha", "echoer"); r.code != 130 || !strings.Contains(r.stderr, "manual-cancel") {
		t.Errorf("wait after kill: %+v", r)
	}

	h.fleet.Host("beta").Stop()
	ls = h.corral("ls")
	if ls.code != 1 || !lsRow("alpha", "echoer", "pty", "exited").MatchString(ls.stdout) ||
		!regexp.MustCompile(`(?m)^corral ls: host beta: ssh beta: .*(refused|closed|reset)`).MatchString(ls.stderr) {
		t.Errorf("ls with beta unreachable: %+v", ls)
	}
	if r := h.corral("poll", "--host", "beta", "sleeper"); r.code != 1 || !strings.Contains(r.stderr, "corral poll: host beta: ssh beta: ") {
		t.Errorf("poll of an unreachable host: %+v", r)
	}
	h.fleet.Host("beta").Restart()
	if r := h.corral("ls", "--host", "beta"); r.code != 0 || !lsRow("beta", "sleeper", "pipe", "running").MatchString(r.stdout) {
		t.Errorf("beta back: %+v", r)
	}
}

// checkLsJSON checks ls --json across hosts: each run with its host, each host with
// its counters.
func checkLsJSON(t *testing.T, r result, want map[string]string) {
	t.Helper()
	var doc struct {
		Runs []struct {
			Host  string `json:"host"`
			Name  string `json:"name"`
			RunID string `json:"run_id"`
		} `json:"runs"`
		Hosts []struct {
			Host    string          `json:"host"`
			Metrics json.RawMessage `json:"metrics"`
			Error   string          `json:"error"`
		} `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("ls --json: %v: %+v", err, r)
	}
	got := map[string]string{}
	for _, run := range doc.Runs {
		got[run.Name] = run.Host
	}
	var names []string
	for _, h := range doc.Hosts {
		names = append(names, h.Host)
		if h.Error != "" || len(h.Metrics) == 0 {
			t.Errorf("host %s in ls --json: %+v", h.Host, h)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || !slices.Equal(names, []string{"local", "alpha", "beta"}) {
		t.Errorf("ls --json: runs %v (want %v), hosts %v\n%s", got, want, names, r.stdout)
	}
}

// A host where corral cannot run is one sentence saying so and what to set, not
// the remote shell's line followed by a hung-up hello; an unknown --host lists the
// hosts there are.
func TestHostSetupErrors(t *testing.T) {
	h := startHosts(t, "[[host]]\nname = \"nopath\"\nssh = \"alpha\"\n\n"+
		"[[host]]\nname = \"badpath\"\nssh = \"alpha\"\ncorral = \"/nonexistent/bin/corral\"\n", "alpha")
	r := h.corral("poll", "--host", "badpath", "x")
	if r.code != 1 || !strings.Contains(r.stderr, `corral poll: host badpath (ssh alpha): no corral runs as /nonexistent/bin/corral there (the remote shell: "`) ||
		!strings.Contains(r.stderr, `fix corral = "/nonexistent/bin/corral" in its [[host]] entry`) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("corral not at its path: %+v", r)
	}
	if out, err := exec.Command("sh", "-c", h.fleet.SSH+" alpha 'command -v corral'").Output(); err == nil {
		t.Logf("corral is on the sessions' PATH (%s): no host without it here", strings.TrimSpace(string(out)))
	} else {
		r = h.corral("poll", "--host", "nopath", "x")
		if r.code != 1 || !strings.Contains(r.stderr, `corral poll: host nopath (ssh alpha): corral is not installed on its PATH (the remote shell: "`) ||
			!strings.Contains(r.stderr, `set corral = "/path/to/corral" in its [[host]] entry`) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("corral not on the PATH: %+v", r)
		}
	}
	ls := h.corral("ls")
	if ls.code != 1 || !strings.Contains(ls.stderr, "corral ls: host badpath (ssh alpha): no corral runs as") ||
		!strings.HasPrefix(ls.stdout, "HOST") {
		t.Errorf("ls with a host without corral: %+v", ls)
	}
	doc := h.corral("doctor")
	if doc.code != 1 || !regexp.MustCompile(`(?m)^host alpha: +ssh alpha: corral \S+ \(protocol \d+\), as here$`).MatchString(doc.stdout) ||
		!strings.Contains(doc.stdout, "ssh alpha: host badpath (ssh alpha): no corral runs as /nonexistent/bin/corral there") {
		t.Errorf("doctor with a good host and a host without corral: %+v", doc)
	}
	r = h.corral("kill", "--host", "gamma", "x")
	if want := `corral kill: unknown host "gamma": the hosts are local, alpha, nopath, badpath ([[host]] in the config)` + "\n"; r.code != 2 || r.stderr != want {
		t.Errorf("unknown host: %+v, want %q", r, want)
	}
}

// BenchmarkPollHost is one corral poll of a run, the whole command (process start,
// config, connection, hello, the call), on this machine's server and on a host
// over real OpenSSH (a fresh ssh connection each time: key exchange, login, corral
// proxy there). Reported: the median (-benchtime 20x: of 20).
func BenchmarkPollHost(b *testing.B) {
	h := startHosts(b, "", "alpha")
	for _, host := range []string{"local", "alpha"} {
		if r := h.corral("spawn", "--host", host, "--name", "quiet", "--", "sleep", "600"); r.code != 0 {
			b.Fatalf("spawn on %s: %+v", host, r)
		}
	}
	for _, host := range []string{"local", "alpha"} {
		b.Run(host, func(b *testing.B) {
			benchMedian(b, func() {
				if r := h.corral("poll", "--host", host, "quiet"); r.code != 0 {
					b.Fatalf("poll: %+v", r)
				}
			})
		})
	}
	// The floor over ssh: a connection, a login and the remote user's shell running
	// nothing (this machine's root shell starts pyenv: most of it).
	b.Run("ssh-true", func(b *testing.B) {
		benchMedian(b, func() {
			if out, err := exec.Command("sh", "-c", h.fleet.SSH+" alpha true").CombinedOutput(); err != nil {
				b.Fatalf("ssh alpha true: %v %s", err, out)
			}
		})
	})
}

// benchMedian runs op b.N times and reports its median.
func benchMedian(b *testing.B, op func()) {
	took := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		op()
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
}

// Package gittest is the tests' git: an environment that ignores the user's and the
// system's git config and commits as a fixed identity, git run in a directory, and a
// small repository to start from. It imports nothing of Corral's.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Isolation is what Env adds to this process's environment: no user or system
// config, a fixed identity. A test that runs corral gives it these too, so the git
// its runs call (diff, finish) is isolated alike.
var Isolation = []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

// Env is this process's environment with Isolation.
func Env() []string { return append(os.Environ(), Isolation...) }

// Git runs git in dir with Env and returns its output, trimmed; a failure ends the
// test with git's output.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Repo is a new repository on branch main with one commit of a.txt ("one\ntwo\n")
// and sub/b.txt ("b\n").
func Repo(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	Git(t, t.TempDir(), "init", "-q", "-b", "main", dir)
	for p, s := range map[string]string{"a.txt": "one\ntwo\n", "sub/b.txt": "b\n"} {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "first")
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real // as git prints it: the temp dir may be under a symlink
	}
	return dir
}

// Shim is Env with a git first on its PATH that runs the shell script pre (which
// sees git's arguments as "$@" and may exit on its own) and then the real git: for a
// test that watches or fails the git Corral runs.
func Shim(t testing.TB, pre string) []string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\n" + pre + "\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := Env()
	for i, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			env[i] = "PATH=" + dir + string(os.PathListSeparator) + path
		}
	}
	return env
}

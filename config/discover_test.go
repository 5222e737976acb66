package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiscoverPrecedence(t *testing.T) {
	work, userCfg := t.TempDir(), t.TempDir()
	t.Chdir(work)
	t.Setenv("XDG_CONFIG_HOME", userCfg) // os.UserConfigDir on Linux
	t.Setenv("HOME", userCfg)            // and on macOS
	dir, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	userFile := filepath.Join(dir, "corral", FileName)

	write := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step, flag, env, want string) {
		t.Helper()
		t.Setenv(ConfigEnv, env)
		got, err := Discover(flag)
		if err != nil || got != want {
			t.Errorf("%s: Discover(%q) = %q, %v; want %q", step, flag, got, err, want)
		}
	}

	check("nothing anywhere", "", "", "")
	write(userFile)
	check("user config dir", "", "", userFile)
	write(filepath.Join(work, FileName))
	check("working directory beats user config", "", "", FileName)
	check("environment beats files", "", "/env/c.toml", "/env/c.toml")
	check("flag beats all, even if missing", "/flag/c.toml", "/env/c.toml", "/flag/c.toml")
}

func TestResolveStateDirPutsConfigBetweenEnvAndXDG(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/xdg")
	t.Setenv(StateDirEnv, "")
	if got, _ := ResolveStateDir("", "/from/file"); got != "/from/file" {
		t.Errorf("config over XDG: got %q", got)
	}
	t.Setenv(StateDirEnv, "/env")
	if got, _ := ResolveStateDir("", "/from/file"); got != "/env" {
		t.Errorf("env over config: got %q", got)
	}
	if got, _ := ResolveStateDir("/flag", "/from/file"); got != "/flag" {
		t.Errorf("flag over all: got %q", got)
	}
}

// Find loads the file it finds; finding none is an error (corral check has nothing
// to check), and a file named but missing is Load's error.
func TestFind(t *testing.T) {
	work, userCfg := t.TempDir(), t.TempDir()
	t.Chdir(work)
	t.Setenv("XDG_CONFIG_HOME", userCfg)
	t.Setenv("HOME", userCfg)
	t.Setenv(ConfigEnv, "")
	if f, err := Find(""); err == nil || f != nil || err.Error() != "no config file (looked for ./corral.toml and the user config dir)" {
		t.Errorf("no file: %v, %v", f, err)
	}
	if _, err := Find("missing.toml"); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("missing file: %v", err)
	}
	if err := os.WriteFile(FileName, []byte("[[run]]\nname = \"a\"\nargv = [\"true\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Find("")
	if err != nil || f.Path != FileName || len(f.Runs) != 1 {
		t.Errorf("./%s: %+v, %v", FileName, f, err)
	}
}

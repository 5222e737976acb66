package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ConfigEnv names the config file to use when no --config flag is given.
const ConfigEnv = "CORRAL_CONFIG"

// FileName is the config file Corral looks for in the working directory and in
// the user config directory.
const FileName = "corral.toml"

// Discover returns the config file to load: the flag if given, else $CORRAL_CONFIG,
// else ./corral.toml if it exists, else <user config dir>/corral/corral.toml if it
// exists, else "" (no config: built-in defaults). A file named by the flag or the
// environment is returned even if missing, so that Load reports it rather than
// Corral silently running without it.
func Discover(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if p := os.Getenv(ConfigEnv); p != "" {
		return p, nil
	}
	candidates := []string{FileName}
	if dir, err := os.UserConfigDir(); err == nil {
		candidates = append(candidates, filepath.Join(dir, "corral", FileName))
	}
	for _, p := range candidates {
		_, err := os.Stat(p)
		switch {
		case err == nil:
			return p, nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("config: %w", err)
		}
	}
	return "", nil
}

// Find is the config file flag names, or Discover finds, loaded: what corral check
// validates. Where none is found it is an error, since there is nothing to check.
func Find(flag string) (*File, error) {
	path, err := Discover(flag)
	if err == nil && path == "" {
		err = errors.New("no config file (looked for ./corral.toml and the user config dir)")
	}
	if err != nil {
		return nil, err
	}
	return Load(path)
}

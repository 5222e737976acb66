package config

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseProcfile reads a Procfile: one "name: command" per line, blank lines and
// # comments ignored. Each entry becomes a pipe run of a shell command line that
// starts with Corral, the way foreman and honcho treat them. Names follow those
// tools too (letters, digits, '-' and '_'), and must be unique.
func ParseProcfile(path string, data []byte) ([]RunEntry, error) {
	var runs []RunEntry
	seen := map[string]int{}
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := i + 1
		text := strings.TrimSpace(string(bytes.TrimSuffix(raw, []byte("\r"))))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		r, err := procfileLine(text)
		if err == nil {
			if first, dup := seen[r.Name]; dup {
				err = fmt.Errorf("name %q is taken by line %d", r.Name, first)
			}
		}
		if err != nil {
			return nil, &Error{Path: path, Line: line, Msg: err.Error()}
		}
		r.Line = line
		seen[r.Name] = line
		runs = append(runs, r)
	}
	return runs, nil
}

func procfileLine(text string) (RunEntry, error) {
	name, cmd, ok := strings.Cut(text, ":")
	name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
	switch {
	case !ok:
		return RunEntry{}, fmt.Errorf(`want "name: command", not %q`, text)
	case name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "":
		return RunEntry{}, fmt.Errorf("want a name of letters, digits, '-' and '_', not %q", name)
	case cmd == "":
		return RunEntry{}, fmt.Errorf("%q has no command", name)
	case !utf8.ValidString(cmd) || strings.ContainsRune(cmd, 0):
		return RunEntry{}, errors.New("want a UTF-8 command without NUL bytes")
	}
	return RunEntry{Name: name, Cmd: cmd, Autostart: true}, nil
}

// procfileBasePort is foreman's: the first process type gets 5000, the next 5100, ….
const procfileBasePort = 5000

// LoadProcfile reads a Procfile and prepares its runs as foreman and overmind do:
// each runs in the Procfile's directory with the variables of the
// .env file beside it (if there is one) and its own PORT, base + 100 × its index, the
// base being PORT from .env or the environment, else 5000.
func LoadProcfile(path string) ([]RunEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	entries, err := ParseProcfile(path, data)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	env, err := loadDotenv(filepath.Join(dir, ".env"))
	if err != nil {
		return nil, err
	}
	base := procfileBasePort
	for _, p := range []string{env["PORT"], os.Getenv("PORT")} {
		if n, err := strconv.Atoi(p); err == nil && n > 0 && n < 65536 {
			base = n
			break
		}
	}
	for i := range entries {
		e := &entries[i]
		e.Cwd, e.Env = dir, maps.Clone(env)
		if e.Env == nil {
			e.Env = map[string]string{}
		}
		e.Env["PORT"] = strconv.Itoa(base + 100*i)
	}
	return entries, nil
}

// loadDotenv reads KEY=VALUE lines (blank lines, # comments and an `export ` prefix
// allowed; a value in '…' is literal, in "…" takes \n, \t, \" and \\). A missing file
// is no variables; a bad line is an error with its line.
func loadDotenv(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	for i, raw := range strings.Split(string(data), "\n") {
		text := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		text = strings.TrimPrefix(text, "export ")
		k, v, ok := strings.Cut(text, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t\"'") {
			return nil, &Error{Path: path, Line: i + 1, Msg: fmt.Sprintf("want KEY=VALUE, not %q", text)}
		}
		env[k] = dotenvValue(strings.TrimSpace(v))
	}
	return env, nil
}

func dotenvValue(v string) string {
	switch {
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return v[1 : len(v)-1]
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`)
		return r.Replace(v[1 : len(v)-1])
	}
	if i := strings.Index(v, " #"); i >= 0 { // an unquoted value's trailing comment
		v = strings.TrimSpace(v[:i])
	}
	return v
}

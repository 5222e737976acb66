package config

import (
	"bytes"
	"errors"
	"fmt"
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

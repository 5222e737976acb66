package agentstate

import (
	"path/filepath"
	"strings"
)

// wrappers are programs that run another one, with the options of theirs that take
// a value (the value is skipped with the option).
var wrappers = map[string]map[string]bool{
	"env":     {"-u": true, "--unset": true, "-C": true, "--chdir": true, "-S": true},
	"sudo":    {"-u": true, "-g": true, "-C": true, "-h": true, "-p": true, "-U": true, "-r": true, "-t": true},
	"doas":    {"-u": true, "-C": true},
	"nice":    {"-n": true},
	"ionice":  {"-c": true, "-n": true, "-p": true},
	"nohup":   {},
	"setsid":  {},
	"time":    {"-f": true, "-o": true},
	"stdbuf":  {"-i": true, "-o": true, "-e": true},
	"exec":    {},
	"command": {},
	"chrt":    {},
	"taskset": {},
	"timeout": {"-s": true, "--signal": true, "-k": true, "--kill-after": true},
}

// positional is how many positional arguments a wrapper takes before the program
// (timeout DURATION, chrt PRIO, taskset MASK).
var positional = map[string]int{"timeout": 1, "chrt": 1, "taskset": 1}

// runners run a package (npx PKG) or a script (node FILE).
var runners = map[string]bool{"npx": true, "bunx": true, "pnpx": true, "node": true, "bun": true, "deno": true,
	"nodejs": true}

// unwrap finds the program a command line runs, and the npm package when it runs
// one: through env and its assignments, sudo, nice, timeout and the like; npx PKG
// (pnpm dlx, npm exec, yarn dlx too); node …/node_modules/PKG/cli.js; sh -c "…".
func unwrap(argv []string) (prog, pkg string) {
	for depth := 0; len(argv) > 0 && depth < 8; depth++ {
		name := filepath.Base(argv[0])
		switch {
		case isAssignment(argv[0]):
			argv = argv[1:] // VAR=value before the program
			continue
		case wrappers[name] != nil:
			argv = skipOptions(argv[1:], wrappers[name], positional[name])
			continue
		case isShell(name) && len(argv) >= 3 && strings.HasPrefix(argv[1], "-") && strings.Contains(argv[1], "c"):
			argv = shellWords(argv[2])
			continue
		case isShell(name) && len(argv) >= 2 && !strings.HasPrefix(argv[1], "-"):
			argv = argv[1:] // sh SCRIPT: the script is the program (a #! script's process)
			continue
		case (name == "pnpm" || name == "yarn") && len(argv) > 1 && argv[1] == "dlx",
			name == "npm" && len(argv) > 1 && argv[1] == "exec":
			argv = append([]string{"npx"}, argv[2:]...)
			continue
		case runners[name]:
			return runnerTarget(name, argv[1:])
		}
		return name, ""
	}
	return "", ""
}

// isAssignment says whether a word is NAME=value, NAME a shell identifier: what env
// and a shell take for a variable, whatever the value holds (HOME=/srv/x, A=b=c). A
// word whose part before "=" is no identifier (./bin/x=y, /opt/a=b/claude) is a program.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "fish":
		return true
	}
	return false
}

// skipOptions drops a wrapper's options (and the values of those that take one) and
// its positional arguments, returning what it runs.
func skipOptions(args []string, valued map[string]bool, npos int) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			args = args[1:]
		case strings.HasPrefix(a, "-"):
			args = args[1:]
			if valued[a] && len(args) > 0 {
				args = args[1:]
			}
			continue
		case isAssignment(a):
			args = args[1:] // env's VAR=value
			continue
		case npos > 0:
			args, npos = args[1:], npos-1
			continue
		}
		return args
	}
	return args
}

// runnerTarget is what npx or node runs: npx's package (its version cut off), or
// node's script, named by the package directory it lies in.
func runnerTarget(runner string, args []string) (prog, pkg string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-p" || a == "--package" {
			if i+1 < len(args) {
				return "", packageName(args[i+1])
			}
			return "", ""
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if runner == "node" || runner == "nodejs" || runner == "bun" || runner == "deno" {
			return scriptPackage(a)
		}
		return filepath.Base(packageName(a)), packageName(a)
	}
	return "", ""
}

// packageName cuts a version off an npm package spec: "@scope/name@1.2" → "@scope/name".
func packageName(spec string) string {
	if at := strings.LastIndex(spec, "@"); at > 0 {
		return spec[:at]
	}
	return spec
}

// scriptPackage names the package a script path lies in: ".../node_modules/@a/b/cli.js"
// → "@a/b"; a script outside node_modules is known by its base name.
func scriptPackage(path string) (prog, pkg string) {
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] != "node_modules" {
			continue
		}
		if i+1 < len(parts) && strings.HasPrefix(parts[i+1], "@") && i+2 < len(parts) {
			return "", parts[i+1] + "/" + parts[i+2]
		}
		if i+1 < len(parts) {
			return "", parts[i+1]
		}
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), ""
}

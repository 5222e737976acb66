package config

import (
	"regexp"
	"strings"
)

// What corral check prints is read over a shoulder, pasted into an issue or kept in a
// CI log: the value of an environment variable whose name says it holds a secret is
// shown as Masked, whole. Not even a prefix: the first characters of a password are
// part of it, and the prefix of an API key ("sk-ant-") says only which service it is
// for, which its name says already. Whether one is set, and to something non-empty,
// is still seen.

// Masked stands for a secret's value in corral check's output.
const Masked = "<masked>"

// SecretName reports whether an environment variable's name says its value is a
// secret: it ends in _KEY, or holds TOKEN, SECRET or PASSWORD, in any case
// (ANTHROPIC_API_KEY, GH_TOKEN, client_secret, DB_PASSWORD).
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	return strings.HasSuffix(n, "_KEY") || strings.Contains(n, "TOKEN") || strings.Contains(n, "SECRET") ||
		strings.Contains(n, "PASSWORD")
}

// maskEnv is v, or Masked if name is a secret's and v is not empty.
func maskEnv(name, v string) string {
	if v != "" && SecretName(name) {
		return Masked
	}
	return v
}

// maskWord masks the secrets of an argv word: a script's assignments when it holds a
// blank (sh -c 'TOKEN=… prog'), else the word's value if it is one (env TOKEN=… prog).
func maskWord(w string) string {
	if strings.ContainsAny(w, " \t\n") {
		return maskShell(w)
	}
	return maskAssignment(w)
}

// maskAssignment masks an argv word NAME=value whose NAME is a secret's (the
// assignments of `env NAME=value prog`).
func maskAssignment(word string) string {
	name, v, ok := strings.Cut(word, "=")
	if !ok || !envIdent.MatchString(name) {
		return word
	}
	return name + "=" + maskEnv(name, v)
}

var envIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// shellAssignment is NAME=value as a word of a shell command: after the start, a
// blank or a command separator; the value quoted or up to the next blank or separator.
var shellAssignment = regexp.MustCompile(`(^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|()]*)`)

// maskShell masks the values of the secret assignments in a shell command line
// (`ANTHROPIC_API_KEY=sk-… claude`, `export GH_TOKEN=…; gh …`).
func maskShell(cmd string) string {
	return shellAssignment.ReplaceAllStringFunc(cmd, func(m string) string {
		g := shellAssignment.FindStringSubmatch(m)
		if g[3] == "" || g[3] == `""` || g[3] == "''" || !SecretName(g[2]) {
			return m
		}
		return g[1] + g[2] + "=" + Masked
	})
}

package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Converters from TOML values to Go values. Each returns a message for the user
// (not yet located); the decoder adds file, line, table and key.

// want is a value of the wrong kind or out of range.
func want(what string, v value) error {
	return fmt.Errorf("want %s, not %s", what, kindName(v))
}

// atLine moves a message to the line of the element at fault, for values that
// span lines.
type atLine struct {
	line int
	error
}

func (e atLine) Unwrap() error { return e.error }

func asString(v value) (string, error) {
	if v.kind != unstable.String {
		return "", want("a string", v)
	}
	if strings.ContainsRune(v.text, 0) || !utf8.ValidString(v.text) {
		return "", errors.New("want a UTF-8 string without NUL bytes")
	}
	return v.text, nil
}

// asText is a string that must say something.
func asText(v value) (string, error) {
	s, err := asString(v)
	if err == nil && strings.TrimSpace(s) == "" {
		err = errors.New("want a non-empty string")
	}
	return s, err
}

func asBool(v value) (bool, error) {
	if v.kind != unstable.Bool {
		return false, want("true or false", v)
	}
	return v.text == "true", nil
}

// asDuration takes Go duration syntax ("90s", "1h30m", "0"), never negative.
func asDuration(v value) (time.Duration, error) {
	if v.kind != unstable.String {
		return 0, want(`a duration string like "30s" or "5m"`, v)
	}
	d, err := time.ParseDuration(v.text)
	if err != nil {
		return 0, want(`a duration like "30s" or "5m"`, v)
	}
	if d < 0 {
		return 0, want("a duration of 0 or more", v)
	}
	return d, nil
}

// asPositiveDuration is a duration where 0 would mean nothing sensible (grace).
func asPositiveDuration(v value) (time.Duration, error) {
	d, err := asDuration(v)
	if err == nil && d == 0 {
		err = want("a duration above 0", v)
	}
	return d, err
}

// asInt takes an integer in [lo, hi].
func asInt(v value, lo, hi int64) (int64, error) {
	if v.kind != unstable.Integer {
		return 0, want("an integer", v)
	}
	n, err := strconv.ParseInt(v.text, 0, 64) // base 0 reads TOML's 0x, 0o, 0b and 1_000
	if err != nil || n < lo || n > hi {
		return 0, want(fmt.Sprintf("an integer from %d to %d", lo, hi), v)
	}
	return n, nil
}

// asByteCount is a positive size that fits an int on every platform.
func asByteCount(v value) (int64, error) { return asInt(v, 1, math.MaxInt32) }

func asChoice(v value, choices ...string) (string, error) {
	s, err := asString(v)
	for _, c := range choices {
		if err == nil && s == c {
			return s, nil
		}
	}
	return "", want(quoteOr(choices), v)
}

// quoteOr renders choices as `"a" or "b"`.
func quoteOr(choices []string) string {
	q := make([]string, len(choices))
	for i, c := range choices {
		q[i] = strconv.Quote(c)
	}
	return strings.Join(q, " or ")
}

// asStrings takes an array of non-empty strings (or, when one is allowed, a single
// string).
func asStrings(v value, single bool) ([]string, error) {
	if single && v.kind == unstable.String {
		v = value{kind: unstable.Array, line: v.line, elems: []value{v}}
	}
	if v.kind != unstable.Array {
		return nil, want("an array of strings", v)
	}
	out := make([]string, 0, len(v.elems))
	for _, e := range v.elems {
		s, err := asText(e)
		if err != nil {
			return nil, atLine{e.line, err}
		}
		out = append(out, s)
	}
	return out, nil
}

// asSignal checks a stop signal's spelling ("TERM", "SIGINT", "15"); whether the
// platform knows it is for the code that sends it.
func asSignal(v value) (string, error) {
	s, err := asString(v)
	if err != nil {
		return "", err
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= 64 {
		return s, nil
	}
	name := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	ok := name != "" && name[0] >= 'A' && name[0] <= 'Z'
	for _, c := range name {
		ok = ok && (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
	}
	if !ok {
		return "", want(`a signal name like "INT" or "SIGTERM", or a number from 1 to 64`, v)
	}
	return s, nil
}

// asName checks a run name: it labels the run in the UI and names it on the
// command line, so it must be printable and short.
func asName(v value) (string, error) {
	s, err := asText(v)
	if err != nil {
		return "", err
	}
	if err := checkName(s); err != nil {
		return "", err
	}
	return s, nil
}

func checkName(s string) error {
	switch {
	case !utf8.ValidString(s):
		return errors.New("want a name in UTF-8")
	case utf8.RuneCountInString(s) > 64:
		return errors.New("want a name of at most 64 characters")
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("want a name without surrounding spaces, not %q", s)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Errorf("want a name without control characters, not %q", s)
	}
	return nil
}

// checkEnvName rejects what cannot be an environment variable's name.
func checkEnvName(name string) error {
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return fmt.Errorf("want an environment variable name without '=', not %q", name)
	}
	return nil
}

package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The restart policies a [[run]] may name.
const (
	RestartNo        = "no"
	RestartOnFailure = "on-failure"
	RestartAlways    = "always"
)

// The probe kinds of ready = {…} and alive = {…}.
const (
	ProbeExec = "exec"
	ProbeHTTP = "http"
	ProbeTCP  = "tcp"
	ProbeLog  = "log"
)

// Probe is a readiness or liveness check: one kind with its target (a command line, a
// URL, a host:port or a regular expression over the run's output) and when it runs.
// Zero durations and counts take ProbeDefaults' values.
type Probe struct {
	Kind   string
	Target string
	// InitialDelay is waited after the start before the first check; Period between
	// checks; Timeout bounds one check. In JSON as integer milliseconds (_ms keys).
	InitialDelay time.Duration
	Period       time.Duration
	Timeout      time.Duration
	// Success checks passed in a row make it pass; Failure failed in a row make it fail.
	Success int
	Failure int
	Line    int // where it was written, for messages; not in JSON
}

// probeJSON is Probe as JSON writes it: snake_case keys, durations in milliseconds.
type probeJSON struct {
	Kind           string `json:"kind"`
	Target         string `json:"target"`
	InitialDelayMS int64  `json:"initial_delay_ms,omitempty"`
	PeriodMS       int64  `json:"period_ms,omitempty"`
	TimeoutMS      int64  `json:"timeout_ms,omitempty"`
	Success        int    `json:"success,omitempty"`
	Failure        int    `json:"failure,omitempty"`
}

// MarshalJSON writes the probe with its durations in milliseconds.
func (p Probe) MarshalJSON() ([]byte, error) {
	return json.Marshal(probeJSON{Kind: p.Kind, Target: p.Target, InitialDelayMS: p.InitialDelay.Milliseconds(),
		PeriodMS: p.Period.Milliseconds(), TimeoutMS: p.Timeout.Milliseconds(), Success: p.Success, Failure: p.Failure})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Probe) UnmarshalJSON(b []byte) error {
	var j probeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = Probe{Kind: j.Kind, Target: j.Target, InitialDelay: time.Duration(j.InitialDelayMS) * time.Millisecond,
		Period: time.Duration(j.PeriodMS) * time.Millisecond, Timeout: time.Duration(j.TimeoutMS) * time.Millisecond,
		Success: j.Success, Failure: j.Failure}
	return nil
}

// ProbeDefaults fills p's zero fields: checks every second, each bounded by a second,
// one success to pass, three failures to fail.
func ProbeDefaults(p Probe) Probe {
	if p.Period == 0 {
		p.Period = time.Second
	}
	if p.Timeout == 0 {
		p.Timeout = time.Second
	}
	if p.Success == 0 {
		p.Success = 1
	}
	if p.Failure == 0 {
		p.Failure = 3
	}
	return p
}

// CheckProbe says what is wrong with p, in words that name the fix.
func CheckProbe(p Probe) error {
	switch p.Kind {
	case ProbeExec:
		if strings.TrimSpace(p.Target) == "" {
			return errors.New(`exec wants a command line, like exec = "pg_isready -h 127.0.0.1"`)
		}
	case ProbeHTTP:
		u, err := url.Parse(p.Target)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf(`http wants an http:// or https:// URL, like "http://127.0.0.1:8080/health", not %q`, p.Target)
		}
	case ProbeTCP:
		if !validHostPort(p.Target) {
			return fmt.Errorf(`tcp wants host:port, like "127.0.0.1:5432", not %q`, p.Target)
		}
	case ProbeLog:
		if _, err := regexp.Compile(p.Target); err != nil {
			return fmt.Errorf("log wants a regular expression (Go syntax): %v", err)
		}
	default:
		return fmt.Errorf("unknown probe kind %q: want one of exec, http, tcp or log", p.Kind)
	}
	switch {
	case p.InitialDelay < 0 || p.Period < 0 || p.Timeout < 0:
		return errors.New("initial_delay, period and timeout want a duration of 0 or more")
	case p.Success < 0 || p.Failure < 0:
		return errors.New("success and failure want a count of 1 or more")
	}
	return nil
}

func validHostPort(s string) bool {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 || i == len(s)-1 {
		return false
	}
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// probeKeys are the keys of ready = {…} and alive = {…} besides the kind.
var probeKeys = map[string]func(p *Probe, v value) error{
	"initial_delay": func(p *Probe, v value) (err error) { p.InitialDelay, err = asDuration(v); return err },
	"period":        func(p *Probe, v value) (err error) { p.Period, err = asPositiveDuration(v); return err },
	"timeout":       func(p *Probe, v value) (err error) { p.Timeout, err = asPositiveDuration(v); return err },
	"success":       func(p *Probe, v value) error { n, err := asInt(v, 1, 1000); p.Success = int(n); return err },
	"failure":       func(p *Probe, v value) error { n, err := asInt(v, 1, 1000); p.Failure = int(n); return err },
}

var probeKinds = map[string]bool{ProbeExec: true, ProbeHTTP: true, ProbeTCP: true, ProbeLog: true}

// asProbe reads ready = { tcp = "127.0.0.1:5432", period = "1s", … }: exactly one kind.
func asProbe(v value) (*Probe, error) {
	if v.kind != unstable.InlineTable {
		return nil, want(`a table like { tcp = "127.0.0.1:5432", period = "1s" }`, v)
	}
	p := &Probe{Line: v.line}
	for _, kv := range v.pairs {
		k := dotted(kv.key)
		if probeKinds[k] {
			if p.Kind != "" {
				return nil, atLine{kv.line, fmt.Errorf("both %s and %s: a probe has one kind", p.Kind, k)}
			}
			s, err := asString(kv.val)
			if err != nil {
				return nil, atLine{kv.line, fmt.Errorf("%s: %w", k, err)}
			}
			p.Kind, p.Target = k, s
			continue
		}
		set := probeKeys[k]
		if set == nil {
			known := map[string]bool{}
			for n := range probeKeys {
				known[n] = true
			}
			for n := range probeKinds {
				known[n] = true
			}
			return nil, atLine{kv.line, fmt.Errorf("unknown probe key %q%s: a probe is one of exec, http, tcp or log, with initial_delay, period, timeout, success, failure", k, didYouMean(k, known))}
		}
		if err := set(p, kv.val); err != nil {
			return nil, atLine{kv.line, fmt.Errorf("%s: %w", k, err)}
		}
	}
	if p.Kind == "" {
		return nil, errors.New(`no probe kind: say one of exec = "…", http = "…", tcp = "…" or log = "…"`)
	}
	if err := CheckProbe(*p); err != nil {
		return nil, err
	}
	return p, nil
}

// asBackoff reads backoff = "1s" (doubling from 1s to backoff_max) or "1s..30s" (from
// 1s, doubling, to 30s); "0" restarts at once.
func asBackoff(v value) (first, most time.Duration, err error) {
	s, err := asString(v)
	if err != nil {
		return 0, 0, want(`a duration like "1s", or a range like "1s..30s"`, v)
	}
	return ParseBackoff(s)
}

// ParseBackoff reads a backoff as corral.toml and --backoff write it: "1s" or "1s..30s"
// (most is 0 when not said).
func ParseBackoff(s string) (first, most time.Duration, err error) {
	lo, hi, isRange := strings.Cut(s, "..")
	bad := fmt.Errorf(`backoff %q: want a duration like "1s", or a range like "1s..30s"`, s)
	if first, err = time.ParseDuration(strings.TrimSpace(lo)); err != nil || first < 0 {
		return 0, 0, bad
	}
	if isRange {
		if most, err = time.ParseDuration(strings.TrimSpace(hi)); err != nil || most < first {
			return 0, 0, fmt.Errorf(`backoff %q: want the longest delay after the first, like "1s..30s"`, s)
		}
	}
	return first, most, nil
}

// serviceKeys are a [[run]]'s keys of its restart policy and probes.
var serviceKeys = map[string]runSetter{
	"restart": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Restart, err = asChoice(v, RestartNo, RestartOnFailure, RestartAlways)
		return err
	},
	"backoff": func(_ *decoder, r *RunEntry, v value) error {
		first, most, err := asBackoff(v)
		r.Backoff, r.BackoffSet = first, true
		if most > 0 {
			r.BackoffMax = most
		}
		return err
	},
	"backoff_max": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.BackoffMax, err = asPositiveDuration(v)
		return err
	},
	"max_restarts": func(_ *decoder, r *RunEntry, v value) error {
		n, err := asInt(v, 0, 1_000_000)
		r.MaxRestarts, r.MaxRestartsSet = int(n), true
		return err
	},
	"restart_window": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.RestartWindow, err = asPositiveDuration(v)
		return err
	},
	"ready": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Ready, err = asProbe(v)
		return err
	},
	"alive": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Alive, err = asProbe(v)
		return err
	},
}

func init() {
	for k, f := range serviceKeys {
		runKeys[k] = f
	}
}

// checkService checks the restart keys together: the backoff and budget of a run
// that never restarts say nothing.
func (d *decoder) checkService(r RunEntry, in string, seen map[string]int) error {
	if r.Restart != "" && r.Restart != RestartNo {
		if r.BackoffMax > 0 && r.BackoffMax < r.Backoff {
			return d.fail(seen["backoff_max"], in, "backoff_max", fmt.Errorf("%s is shorter than the first delay %s: set it to %s or more", r.BackoffMax, r.Backoff, r.Backoff))
		}
		return nil
	}
	for _, k := range []string{"backoff", "backoff_max", "max_restarts", "restart_window"} {
		if line, has := seen[k]; has {
			return d.fail(line, in, k, errors.New(`set restart = "on-failure" or "always" too: without it the run is never restarted`))
		}
	}
	return nil
}

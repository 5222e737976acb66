package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The keys of corral.toml, as spelled in the file.
const (
	keyGrace         = "grace"
	keyTimeout       = "timeout"
	keyNoOutput      = "no_output_timeout"
	keyOutputCap     = "output_cap"
	keyTranscriptCap = "transcript_cap"
	keyScrollback    = "scrollback_lines"
	keyTTL           = "finished_ttl"
	keyLogTTL        = "log_ttl"
	keyReconcile     = "reconcile_policy"
	keyEscape        = "escape_policy"
	keyStateDir      = "state_dir"
	keyCgroupRoot    = "cgroup_root"
	keyWindowSize    = "window_size"
)

// maxSize bounds a run's PTY columns and rows: the emulator allocates cols × rows
// cells, so a typo must not become gigabytes.
const maxSize = 1000

// maxScrollback bounds scrollback_lines, for the same reason: every run keeps that
// many rendered lines.
const maxScrollback = 1_000_000

type (
	defaultsSetter func(d *decoder, fd *FileDefaults, v value) error
	runSetter      func(d *decoder, r *RunEntry, v value) error
)

var defaultsKeys = map[string]defaultsSetter{
	keyGrace: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.Grace, err = asPositiveDuration(v)
		return err
	},
	keyTimeout: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.Timeout, err = asDuration(v)
		return err
	},
	keyNoOutput: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.NoOutputTimeout, err = asDuration(v)
		return err
	},
	keyOutputCap: func(_ *decoder, fd *FileDefaults, v value) error {
		n, err := asByteCount(v)
		fd.OutputCap = int(n)
		return err
	},
	keyTranscriptCap: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.TranscriptCap, err = asByteCount(v)
		return err
	},
	keyScrollback: func(_ *decoder, fd *FileDefaults, v value) error {
		n, err := asInt(v, 0, maxScrollback)
		fd.ScrollbackLines = int(n)
		return err
	},
	keyTTL: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.FinishedTTL, err = asDuration(v)
		return err
	},
	keyLogTTL: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.LogTTL, err = asDuration(v)
		return err
	},
	keyReconcile: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.ReconcilePolicy, err = asChoice(v, ReconcileTerminate, ReconcileAdopt)
		return err
	},
	keyEscape: func(_ *decoder, fd *FileDefaults, v value) (err error) {
		fd.EscapePolicy, err = asChoice(v, EscapeOwn, EscapeFail, EscapeWarn)
		return err
	},
	keyCgroupRoot: func(d *decoder, fd *FileDefaults, v value) (err error) {
		fd.CgroupRoot, err = asText(v)
		return err
	},
	keyStateDir: func(d *decoder, fd *FileDefaults, v value) error {
		s, err := asText(v)
		fd.StateDir = d.resolve(s)
		return err
	},
}

var runKeys = map[string]runSetter{
	"name": func(*decoder, *RunEntry, value) error { return nil }, // read first, by run
	"cmd": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Cmd, err = asText(v)
		return err
	},
	"argv": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Argv, err = asStrings(v, false)
		if err == nil && len(r.Argv) == 0 {
			err = errors.New(`want the program and its arguments, like ["go", "test", "./..."]`)
		}
		return err
	},
	"pty": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.PTY, err = asBool(v)
		return err
	},
	"parity": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Parity, err = asBool(v)
		return err
	},
	"cwd": func(d *decoder, r *RunEntry, v value) error {
		s, err := asText(v)
		r.Cwd = d.resolve(s)
		return err
	},
	"env":        (*decoder).inlineEnv,
	"depends_on": (*decoder).dependsOn,
	"on_dependency_lost": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.OnDependencyLost, err = asChoice(v, DepLostRestart)
		return err
	},
	keyTimeout: func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Timeout, err = asDuration(v)
		r.TimeoutSet = true
		return err
	},
	keyNoOutput: func(_ *decoder, r *RunEntry, v value) (err error) {
		r.NoOutputTimeout, err = asDuration(v)
		r.NoOutputSet = true
		return err
	},
	keyGrace: func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Grace, err = asPositiveDuration(v)
		return err
	},
	"stop_signal": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.StopSignal, err = asSignal(v)
		r.StopSignalLine = v.line // an unknown name is found later, against the OS's list
		return err
	},
	keyEscape: func(_ *decoder, r *RunEntry, v value) (err error) {
		r.EscapePolicy, err = asChoice(v, EscapeOwn, EscapeFail, EscapeWarn)
		return err
	},
	"worktree": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Worktree, err = asBool(v)
		return err
	},
	"branch": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Branch, err = asText(v)
		if err == nil && (r.Branch == "" || strings.ContainsAny(r.Branch, " ~^:?*[\\") || strings.Contains(r.Branch, "..")) {
			err = fmt.Errorf("%q is not a git branch name", r.Branch)
		}
		return err
	},
	"base": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Base, err = asText(v)
		if err == nil && strings.TrimSpace(r.Base) == "" {
			err = errors.New("want a commit, branch or tag")
		}
		return err
	},
	"autostart": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Autostart, err = asBool(v)
		return err
	},
	"cols": func(_ *decoder, r *RunEntry, v value) error {
		n, err := asInt(v, 1, maxSize)
		r.Cols = uint16(n)
		return err
	},
	"rows": func(_ *decoder, r *RunEntry, v value) error {
		n, err := asInt(v, 1, maxSize)
		r.Rows = uint16(n)
		return err
	},
	"restore": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Restore, err = asBool(v)
		return err
	},
	"agent": func(_ *decoder, r *RunEntry, v value) (err error) {
		r.Agent, err = asText(v)
		r.AgentLine = v.line // which agents exist is the rules' business, checked by corral check
		return err
	},
}

// didYouMean suggests the known key closest to a misspelt one.
func didYouMean[T any](key string, known map[string]T) string {
	if s := closest(key, slices.Sorted(maps.Keys(known))); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// closest is the candidate within a small edit distance of s, if any.
func closest(s string, candidates []string) string {
	best, bestDist := "", len(s)/4+2 // at most a quarter of s wrong, and at least one edit allowed
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestDist && d < len(c) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance over bytes (keys are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

type worktreeSetter func(d *decoder, w *Worktree, v value) error

// worktreeKeys are the keys of [worktree].
var worktreeKeys = map[string]worktreeSetter{
	"root": func(d *decoder, w *Worktree, v value) error {
		s, err := asText(v)
		if err == nil && s == "" {
			err = errors.New("want a directory (relative to this file's)")
		}
		w.Root = d.resolve(s)
		return err
	},
	"setup": func(_ *decoder, w *Worktree, v value) (err error) {
		w.Setup, err = asStrings(v, false) // each a non-empty string
		return err
	},
}

// worktree reads [worktree]: where runs' worktrees go and the setup steps run in a
// new one.
func (d *decoder) worktree(t table) error {
	d.f.Worktree.Line = t.line
	for _, p := range t.pairs {
		set := worktreeKeys[p.key[0]]
		if len(p.key) != 1 || set == nil {
			d.note(unknownKey(d, p, "[worktree]", worktreeKeys))
			continue
		}
		if err := set(d, &d.f.Worktree, p.val); err != nil {
			d.note(d.fail(p.line, "[worktree]", p.key[0], err))
		}
	}
	return nil
}

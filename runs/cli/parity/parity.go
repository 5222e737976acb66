package parity

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"corral/ptyhost"
	"corral/reaper"
	"corral/runs"
)

// Core is what a comparison needs of the supervisor; *runs.Supervisor is one.
type Core interface {
	Spawn(runs.Spec) (string, error)
	Cancel(id string) error
	Write(id string, b []byte) error
	CloseStdin(id string) error
	Wait(ctx context.Context, id string) (runs.Info, error)
	Log(id string) (runs.Output, error)
	Tail(id string) ([]byte, error)
	Escapees(id string) ([]runs.Escapee, error)
}

// Options tune a comparison.
type Options struct {
	// Input is written to both runs as soon as they start; then their input ends: the
	// pipe run's stdin is closed, the PTY run gets the terminal's end-of-file (^D,
	// twice when the input does not end a line: the first only sends the partial line).
	Input string
	// Raw compares the bytes as read, with no normalization.
	Raw bool
}

// Result is the outcome of one comparison; its JSON is corral parity --json.
type Result struct {
	PTY       runs.Report `json:"pty"`
	Pipe      runs.Report `json:"pipe"`
	Identical bool        `json:"identical"`
	// Diff is the unified diff of the two outputs (PTY first), "" when they are equal.
	Diff string `json:"diff"`
	// Differences names every way the two runs differ, output included, one line each.
	Differences []string `json:"differences"`
	Normalized  bool     `json:"normalized"`
	// EchoRemoved counts the input lines whose PTY echo was found and removed.
	EchoRemoved int `json:"echo_removed"`

	ptyInfo, pipeInfo runs.Info
}

// ErrRefused: the supervisor refused to start one of the two runs (a bad spec); the
// other, if it started, has been stopped.
var ErrRefused = errors.New("parity: run refused")

// Run starts spec as a PTY run and as a pipe run, one right after the other, feeds
// both the same input, waits for both to end and compares them. Cancelling ctx
// cancels both runs; the result then compares how they ended.
func Run(ctx context.Context, c Core, spec runs.Spec, opt Options) (Result, error) {
	ids, err := spawnBoth(c, spec)
	if err != nil {
		return Result{}, err
	}
	feed(c, ids, opt.Input)
	// Cancelling ctx cancels both runs (manual-cancel); they are still compared.
	stop := context.AfterFunc(ctx, func() {
		for _, id := range ids {
			c.Cancel(id)
		}
	})
	defer stop()
	var infos [2]runs.Info
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() { infos[i], _ = c.Wait(context.Background(), id) })
	}
	wg.Wait()
	return compare(c, ids, infos, opt), nil
}

// Pair is spec as the two runs of a comparison: a PTY one and a pipe one, named after
// the command with " (pty)" and " (pipe)", and marked as one pair (Spec.Pair), which
// is how the UI finds the other half.
func Pair(spec runs.Spec) [2]runs.Spec {
	base := spec.DisplayName()
	spec.Stdout, spec.Stderr = nil, nil
	spec.Pair = newPairID()
	var out [2]runs.Spec
	for i, pty := range []bool{true, false} {
		s := spec
		s.PTY = pty
		s.Name = fmt.Sprintf("%s (%s)", base, s.Kind())
		out[i] = s
	}
	return out
}

func newPairID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "p" + hex.EncodeToString(b)
}

// spawnBoth starts the two runs of Pair(spec).
func spawnBoth(c Core, spec runs.Spec) ([2]string, error) {
	var ids [2]string
	for i, s := range Pair(spec) {
		id, err := c.Spawn(s)
		if id == "" {
			if i == 1 {
				c.Cancel(ids[0])
				c.Wait(context.Background(), ids[0])
			}
			return ids, fmt.Errorf("%w: %w", ErrRefused, err)
		}
		ids[i] = id
	}
	return ids, nil
}

// feed writes the input to both runs and ends it (Options.Input).
func feed(c Core, ids [2]string, input string) {
	eof := []byte{0x04}
	if input != "" && !strings.HasSuffix(input, "\n") {
		eof = []byte{0x04, 0x04}
	}
	if input != "" {
		c.Write(ids[0], []byte(input))
		c.Write(ids[1], []byte(input))
	}
	c.Write(ids[0], eof)
	c.CloseStdin(ids[1])
}

// Side is what a comparison needs of one ended run.
type Side struct {
	Info     runs.Info
	Output   runs.Output
	Escapees []runs.Escapee
	Tail     []byte
}

// compare builds the result from the two ended runs.
func compare(c Core, ids [2]string, infos [2]runs.Info, opt Options) Result {
	var sides [2]Side
	for i, id := range ids {
		sides[i].Info = infos[i]
		sides[i].Escapees, _ = c.Escapees(id)
		sides[i].Tail, _ = c.Tail(id)
		sides[i].Output, _ = c.Log(id)
	}
	return Compare(sides[0], sides[1], opt)
}

// Compare compares two ended runs of a pair, the PTY one first.
func Compare(pty, pipe Side, opt Options) Result {
	reps := [2]runs.Report{runs.NewReport(pty.Info, pty.Escapees, pty.Tail),
		runs.NewReport(pipe.Info, pipe.Escapees, pipe.Tail)}
	outs := [2]runs.Output{pty.Output, pipe.Output}
	res := Result{PTY: reps[0], Pipe: reps[1], Normalized: !opt.Raw,
		ptyInfo: pty.Info, pipeInfo: pipe.Info}
	var changed int
	res.Diff, changed, res.EchoRemoved = outputDiff(outs[0], outs[1], opt)
	res.Differences = append([]string{}, differences(reps[0], reps[1])...)
	if changed > 0 {
		res.Differences = append(res.Differences, fmt.Sprintf("output: %d lines differ", changed))
	}
	for i, o := range outs {
		if o.Dropped > 0 {
			res.Differences = append(res.Differences, fmt.Sprintf(
				"the %s run's output was cut to its last %d bytes: the comparison covers only those",
				[2]string{"pty", "pipe"}[i], o.Total-o.Dropped))
		}
	}
	res.Identical = len(res.Differences) == 0
	return res
}

// outputDiff is the unified diff of the two outputs after normalization (or raw).
// It also returns how many lines differ and how many echoed input lines it removed.
func outputDiff(ptyOut, pipeOut runs.Output, opt Options) (diff string, changed, echoed int) {
	a, b := lines(ptyOut, opt.Raw), lines(pipeOut, opt.Raw)
	if !opt.Raw && opt.Input != "" {
		a, echoed = removeEcho(a, opt.Input)
	}
	at, bt := texts(a), texts(b)
	mark := func(j int) string {
		if b[j].stderr {
			return "   ⟨stderr⟩"
		}
		return ""
	}
	diff, changed = unified(at, bt, "pty", "pipe", mark)
	return diff, changed, echoed
}

// noEOL ends the lines of an output whose last line has no line end, as diff(1)
// marks a file's, so that a missing final newline is a difference.
const noEOL = `\ no line end`

// lines is a run's output as normalized lines (or raw ones).
func lines(o runs.Output, raw bool) []line {
	ls, open := normalize(pieces(o, raw))
	if open {
		ls = append(ls, line{text: noEOL})
	}
	return ls
}

// pieces turns a run's output into the normalizer's input; raw output is passed
// through a parser that removes nothing, so only lines are split.
func pieces(o runs.Output, raw bool) []piece {
	ps := make([]piece, 0, len(o.Chunks))
	for _, ch := range o.Chunks {
		data := ch.Data
		if raw {
			data = quoteControls(data)
		}
		ps = append(ps, piece{data: data, stderr: ch.Stream == ptyhost.Stderr})
	}
	return ps
}

// quoteControls shows raw control bytes (other than LF) as visible text, so the raw
// comparison keeps them and the diff can be printed to a terminal safely.
func quoteControls(p []byte) []byte {
	var out []byte
	for _, c := range p {
		switch {
		case c == '\n' || c == '\t' || c >= 0x20 && c != 0x7f:
			out = append(out, c)
		default:
			out = fmt.Appendf(out, "\\x%02x", c)
		}
	}
	return out
}

func texts(ls []line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// differences lists how the two reports differ. Durations always differ a little and are shown, never compared. A PTY run's
// hang-up step is how a terminal ends; only the steps after it are compared.
func differences(p, q runs.Report) []string {
	var out []string
	add := func(what, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: %s (pty) vs %s (pipe)", what, a, b))
		}
	}
	add("reason", p.Reason.String(), q.Reason.String())
	add("exit code", intText(p.ExitCode), intText(q.ExitCode))
	add("signal", strText(p.Signal), strText(q.Signal))
	add("cleanup", runs.StepsText(asPipe(p.Cleanup.Steps)), runs.StepsText(q.Cleanup.Steps))
	add("processes killed", fmt.Sprint(p.Cleanup.Killed), fmt.Sprint(q.Cleanup.Killed))
	add("escapees", fmt.Sprint(len(p.Escapees)), fmt.Sprint(len(q.Escapees)))
	add("spawn error", p.SpawnErr, q.SpawnErr)
	return out
}

// asPipe is a PTY run's cleanup steps as a pipe run's would read: a hang-up that
// ended everything is how a terminal asks what SIGTERM asks of a pipe run, so
// [hup] reads as [term]. A hang-up that did not end everything stays: a process that
// survives SIGHUP but not SIGTERM is exactly the difference to show.
func asPipe(steps []reaper.Step) []reaper.Step {
	if len(steps) == 1 && steps[0] == reaper.StepHup {
		return []reaper.Step{reaper.StepTerm}
	}
	return steps
}

func intText(p *int) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

func strText(p *string) string {
	if p == nil {
		return "none"
	}
	return *p
}

// PTYInfo and PipeInfo are the two runs compared.
func (r Result) PTYInfo() runs.Info  { return r.ptyInfo }
func (r Result) PipeInfo() runs.Info { return r.pipeInfo }

// Text is the readable account corral parity prints without --json: one summary line
// per run, the verdict with every difference, and the output diff.
func (r Result) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pty:  %s\npipe: %s\n", runs.Summary(r.ptyInfo), runs.Summary(r.pipeInfo))
	how := "after normalization"
	if !r.Normalized {
		how = "raw bytes"
	}
	if r.Identical {
		fmt.Fprintf(&b, "identical (%s)\n", how)
		return b.String()
	}
	fmt.Fprintf(&b, "different (%s):\n", how)
	for _, d := range r.Differences {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	b.WriteString(r.Diff)
	return b.String()
}

package agentstate

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"corral/ptyhost/screen"
	"corral/runs/agentstate/agenttest"
)

// The recorded corpus (testdata/corpus: real Claude Code, codex and Gemini CLI
// sessions) replayed through a Screen and the built-in rules, judged when a run
// judges them: agentDebounce after the first byte of a burst, and again while output
// keeps coming (runs/run_agent.go). Every labelled phase must give its state, and
// waiting must never show outside the stretch around the permission question.

// corpusDir is testdata/corpus, or $CORRAL_CORPUS_DIR: the drift check (make
// agents-latest) replays its fresh recordings of the newest CLIs through the rules.
var corpusDir = corpusFrom(os.Getenv("CORRAL_CORPUS_DIR"))

func corpusFrom(dir string) string {
	if dir != "" {
		return dir
	}
	return filepath.Join("testdata", "corpus")
}

// recordings are the recordings in corpusDir: agenttest.Recordings, or every one in
// $CORRAL_CORPUS_DIR.
func recordings(t testing.TB) []string {
	if os.Getenv("CORRAL_CORPUS_DIR") == "" {
		return agenttest.Recordings
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.phases.json"))
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".phases.json"))
	}
	if len(names) == 0 {
		t.Fatalf("no recordings in %s", corpusDir)
	}
	return names
}

// debounce is runs' agentDebounce (runs imports this package, not the other way).
const debounce = 20 * time.Millisecond

// judgment is one evaluation in the replay: when (cast time), after how many bytes,
// and its verdict.
type judgment struct {
	t   float64
	off int
	v   Verdict
}

// replay is a recording replayed.
type replay struct {
	rec    agenttest.Recording
	agent  *Agent
	scr    *screen.Screen
	off    int
	at     map[int]Verdict // direct evaluations at the phases' bounds
	judged []judgment      // the scheduled ones
	times  []float64       // the cast time of each byte's event, for latencies
}

// newReplay replays recording name: each event fed at its time, the scheduled
// judgments made as a run makes them, and a direct evaluation at every phase bound.
func newReplay(t testing.TB, name string) *replay {
	t.Helper()
	rec, cast, err := agenttest.Load(corpusDir, name)
	if err != nil {
		t.Fatal(err)
	}
	a := Builtin().Named(rec.Agent)
	if a == nil {
		t.Fatalf("%s: no built-in rules for %q", name, rec.Agent)
	}
	r := &replay{rec: rec, agent: a, scr: screen.NewScreen(rec.Cols, rec.Rows), at: map[int]Verdict{}}
	bounds := r.bounds()
	armed, dirty, fire := false, false, 0.0
	step := debounce.Seconds()
	judge := func(now float64) {
		for armed && fire <= now {
			if !dirty {
				armed = false
				break
			}
			dirty = false
			r.judged = append(r.judged, judgment{t: fire, off: r.off, v: a.Evaluate(r.input())})
			fire += step
		}
	}
	for _, e := range cast.Events {
		judge(e.T)
		r.feed(e.Data, e.T, bounds)
		if !dirty {
			dirty = true
		}
		if !armed {
			armed, fire = true, e.T+step
		}
	}
	judge(cast.Events[len(cast.Events)-1].T + 1) // the bursts' last judgments
	return r
}

// bounds are the offsets the phases start and end at, in order.
func (r *replay) bounds() []int {
	var b []int
	for _, p := range r.rec.Phases {
		b = append(b, p.From, p.To)
	}
	slices.Sort(b)
	return slices.Compact(b)
}

// feed writes one event's data, stopping at each phase bound it crosses to evaluate
// there directly.
func (r *replay) feed(data string, t float64, bounds []int) {
	for len(data) > 0 {
		next := len(data)
		for _, b := range bounds {
			if b > r.off && b < r.off+next {
				next = b - r.off
				break
			}
		}
		r.scr.Write([]byte(data[:next]))
		for range next {
			r.times = append(r.times, t)
		}
		r.off += next
		data = data[next:]
		if slices.Contains(bounds, r.off) {
			r.at[r.off] = r.agent.Evaluate(r.input())
		}
	}
}

func (r *replay) input() Input {
	s := r.scr.Signals()
	return Input{Screen: r.scr, Signals: Signals{Title: s.Title, Announce: s.Announce, Progress: s.Progress}}
}

// window is a stretch of the stream where waiting may show: from where the phase
// before the permission question ended to where the phase after it begins.
type window struct{ from, to int }

func (r *replay) waitingWindows() []window {
	var w []window
	for i, p := range r.rec.Phases {
		if p.State != agenttest.StateWaiting {
			continue
		}
		win := window{p.From, p.To}
		if i > 0 {
			win.from = r.rec.Phases[i-1].To
		}
		if i+1 < len(r.rec.Phases) {
			win.to = r.rec.Phases[i+1].From
		}
		w = append(w, win)
	}
	return w
}

func TestCorpus(t *testing.T) {
	for _, name := range recordings(t) {
		t.Run(name, func(t *testing.T) {
			r := newReplay(t, name)
			for _, p := range r.rec.Phases {
				r.checkPhase(t, p)
			}
			r.checkStrictWaiting(t)
		})
	}
}

// checkPhase: a labelled phase gives its state at both its bounds and in every
// judgment made inside it.
func (r *replay) checkPhase(t *testing.T, p agenttest.Phase) {
	t.Helper()
	if p.State == agenttest.StateUnknown {
		return // start-up: the corpus makes no claim
	}
	for _, off := range []int{p.From, p.To} {
		if v := r.at[off]; v.State.String() != p.State {
			t.Errorf("%s at byte %d: %s (%s), want %s\n%s", p.Name, off, v.State, v.Rule, p.State, r.explainAt(off))
		}
	}
	for _, j := range r.judged {
		if j.off >= p.From && j.off <= p.To && j.v.State.String() != p.State {
			t.Errorf("%s: judged %s (%s) at byte %d (%.3fs), want %s", p.Name, j.v.State, j.v.Rule, j.off, j.t, p.State)
		}
	}
}

// checkStrictWaiting: waiting shows only around the permission question, never at
// start-up, at a prompt, or while the agent works.
func (r *replay) checkStrictWaiting(t *testing.T) {
	t.Helper()
	wins := r.waitingWindows()
	for _, j := range r.judged {
		if j.v.State != Waiting {
			continue
		}
		if !slices.ContainsFunc(wins, func(w window) bool { return j.off >= w.from && j.off <= w.to }) {
			t.Errorf("waiting (%s) at byte %d (%.3fs), outside any question", j.v.Rule, j.off, j.t)
		}
	}
}

// explainAt replays the recording to off and explains the rules there.
func (r *replay) explainAt(off int) string {
	_, cast, _ := agenttest.Load(corpusDir, r.rec.Name)
	s := screen.NewScreen(r.rec.Cols, r.rec.Rows)
	s.Write(cast.Stream()[:off])
	sig := s.Signals()
	e := r.agent.Explain(Input{Screen: s, Signals: Signals{Title: sig.Title, Announce: sig.Announce}})
	var b strings.Builder
	for _, c := range e.Checks {
		fmt.Fprintf(&b, "  %v %s %s: %s\n", c.Matched, c.State, c.Rule, c.Why)
	}
	for _, rg := range e.Regions {
		fmt.Fprintf(&b, "  %s:\n    %s\n", rg.Region, strings.Join(rg.Lines, "\n    "))
	}
	return b.String()
}

// latencies are, for each labelled phase after the first, the time from the byte
// that brought its state (the first after which every direct look says so) to the
// first judgment that said so: what a run's detection costs in waiting, besides the
// judging itself.
func (r *replay) latencies(t testing.TB) []time.Duration {
	_, cast, _ := agenttest.Load(corpusDir, r.rec.Name)
	stream := cast.Stream()
	var out []time.Duration
	for i, p := range r.rec.Phases {
		if i == 0 || p.State == agenttest.StateUnknown {
			continue
		}
		k := r.changeByte(stream, r.rec.Phases[i-1].To, p)
		at := sort.Search(len(r.judged), func(n int) bool { return r.judged[n].off >= k })
		for ; at < len(r.judged) && r.judged[at].v.State.String() != p.State; at++ {
		}
		if at == len(r.judged) {
			t.Errorf("%s: %s never judged after byte %d", r.rec.Name, p.Name, k)
			continue
		}
		out = append(out, time.Duration((r.judged[at].t-r.times[k-1])*float64(time.Second)))
	}
	return out
}

// changeByte is the least k in (from, p.From] after which a direct look gives p's
// state at every event boundary up to p.From.
func (r *replay) changeByte(stream []byte, from int, p agenttest.Phase) int {
	s := screen.NewScreen(r.rec.Cols, r.rec.Rows)
	s.Write(stream[:from])
	k := -1
	for off := from; off < p.From; {
		n := off + 1
		for n < p.From && r.times[n] == r.times[off] {
			n++ // to the end of this event
		}
		s.Write(stream[off:n])
		off = n
		sig := s.Signals()
		v := r.agent.Evaluate(Input{Screen: s, Signals: Signals{Title: sig.Title, Announce: sig.Announce}})
		if v.State.String() != p.State {
			k = -1 // not yet (or not any more): the change is later
			continue
		}
		if k < 0 {
			k = off
		}
	}
	if k < 0 {
		k = p.From
	}
	return max(k, 1)
}

// What a notification quotes at each recorded permission question: the question
// itself, without the box it is drawn in or its padding, and one line of context.
func TestCorpusQuestionText(t *testing.T) {
	want := map[string][2]string{
		"claude":   {"Do you want to proceed?", "echo corral-ok > corral-ok.txt"},
		"codex":    {"Would you like to run the following command?", "echo corral-ok > corral-ok.txt"},
		"gemini":   {"Allow execution of [Shell]?", "echo corral-ok > corral-ok.txt"},
		"opencode": {"Permission required", "echo corral-ok > corral-ok.txt"},
	}
	for _, name := range recordings(t) {
		t.Run(name, func(t *testing.T) {
			r := newReplay(t, name)
			p, ok := r.rec.Phase("waiting-permission")
			if !ok {
				t.Skipf("%s asks no question", name)
			}
			w := want[r.rec.Agent]
			for _, off := range []int{p.From, p.To} {
				v := r.at[off]
				if v.State != Waiting || v.Context != w[0] || v.Detail != w[1] {
					t.Errorf("at byte %d: %s (%s) quoting %q, %q; want %q, %q", off, v.State, v.Rule, v.Context, v.Detail, w[0], w[1])
				}
			}
		})
	}
}

// Clean cuts box drawing, padding and line breaks from what is quoted.
func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"│ Allow execution of [Shell]?" + strings.Repeat(" ", 90) + "│": "Allow execution of [Shell]?",
		"╭──╮\n│ a   b\t c │\x1b\n╰──╯":                                 "a b c",
		"  plain  ": "plain",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// Each recording was made with a version of its CLI that its rules say they were
// checked against (the rule file's recorded), and says which: corral doctor reads that
// list to tell a user whose CLI is newer that the rules may be stale.
func TestCorpusVersionsRecorded(t *testing.T) {
	for _, name := range recordings(t) {
		rec, _, err := agenttest.Load(corpusDir, name)
		if err != nil {
			t.Fatal(err)
		}
		a := Builtin().Named(rec.Agent)
		v := versionRe.FindString(rec.Version)
		if a == nil || v == "" || !slices.Contains(a.Recorded, v) {
			t.Errorf("%s: recorded with %s %q, not among the versions its rules were recorded with (%v)",
				name, rec.Package, rec.Version, a.Recorded)
		}
	}
}

var versionRe = regexp.MustCompile(`\d+\.\d+\.\d+`)

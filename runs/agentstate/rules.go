package agentstate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Agent is one agent's rules: how it is recognised and what each state looks like.
type Agent struct {
	Name     string   // the id rules, configs and --agent use ("claude")
	Title    string   // what people call it ("Claude Code")
	Commands []string // program names it runs as (argv[0]'s base name)
	Packages []string // npm packages it comes in (npx PKG, node …/PKG/cli.js)
	Rules    []Rule   // by priority, highest first; file order among equals
	Source   string   // the file it came from ("builtin:claude.toml" or a path)
	// Recorded are the CLI's versions the rules were checked against (corral doctor
	// compares the installed one with them).
	Recorded []string
	// Modes are the modes in which it will not ask before it acts ([[mode]] tables).
	Modes []Mode
	// Session is how it names and resumes a conversation (the [session] table), nil
	// when the file says nothing of it.
	Session *Session
}

// Rule decides a state when all its clauses match.
type Rule struct {
	Name     string
	State    State
	Priority int
	When     []Clause
	Line     int // of its [[rule]] in Source
	// Question and Detail say which rows a notification quotes (rule-file keys
	// question and detail): the first pattern that matches the rows the rule's
	// clauses read gives the text — its first capture group when it has one, else the
	// whole row where the match begins — cleaned (Clean). Without Question the text
	// is the row the rule's first pattern matched; without Detail there is none.
	Question, Detail []*regexp.Regexp
	// Approve and Deny are the keys (send-keys words) that answer the question a
	// waiting rule recognises, yes or no, in the agent's own way (rule-file keys
	// approve and deny): what a one-tap answer sends. Nil: no such answer.
	Approve, Deny []string
}

// Rule returns the agent's rule of that name, or nil.
func (a *Agent) Rule(name string) *Rule {
	for i := range a.Rules {
		if a.Rules[i].Name == name {
			return &a.Rules[i]
		}
	}
	return nil
}

// Clause is patterns over one region: one of Any (when given) and each of All must
// match, none of Not may. Patterns are RE2 regular expressions matched against the
// region's lines joined by "\n", with ^ and $ at each line's ends; screen rows come
// trimmed of trailing spaces, as tmux's capture-pane gives them.
type Clause struct {
	Region        Region
	Any, All, Not []*regexp.Regexp
}

// Region is where a clause looks.
type Region struct {
	Kind RegionKind
	N    int // rows, for top and bottom
}

// RegionKind names a region.
type RegionKind uint8

const (
	RegionTitle    RegionKind = iota // the title (OSC 0/2)
	RegionAnnounce                   // the agent's last announcement (OSC 7501)
	RegionProgress                   // its progress (OSC 9;4: "3", "1;40"; "" when none)
	RegionNotice                     // its last notification not answered by input since ("\a" for a bell)
	RegionScreen                     // every row of the screen
	RegionTop                        // the first N rows
	RegionBottom                     // the last N rows up to the last one that is not blank
)

var regionNames = [...]string{RegionTitle: "title", RegionAnnounce: "announce", RegionProgress: "progress",
	RegionNotice: "notice", RegionScreen: "screen", RegionTop: "top", RegionBottom: "bottom"}

func (r Region) String() string {
	if r.Kind == RegionTop || r.Kind == RegionBottom {
		return regionNames[r.Kind] + " " + strconv.Itoa(r.N)
	}
	return regionNames[r.Kind]
}

// onScreen reports whether reading the region reads the emulated screen.
func (r Region) onScreen() bool { return r.Kind >= RegionScreen }

// maxRows bounds top and bottom (the screen itself has at most 1000).
const maxRows = 1000

// parseRegion reads "title", "announce", "progress", "notice", "screen", "top N" or
// "bottom N".
func parseRegion(s string) (Region, error) {
	word, num, hasNum := strings.Cut(strings.TrimSpace(s), " ")
	for k, name := range regionNames {
		if name != word {
			continue
		}
		r := Region{Kind: RegionKind(k)}
		if r.Kind != RegionTop && r.Kind != RegionBottom {
			if hasNum {
				return r, fmt.Errorf("region %q takes no row count", word)
			}
			return r, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || n < 1 || n > maxRows {
			return r, fmt.Errorf("region %q wants a row count from 1 to %d (%q)", word, maxRows, s)
		}
		r.N = n
		return r, nil
	}
	return Region{}, fmt.Errorf("unknown region %q (want title, announce, progress, notice, screen, top N or bottom N)", s)
}

// Signals are what an agent says besides its screen; reading them costs nothing.
type Signals struct {
	Title    string
	Announce string
	Progress string
	Notice   string // the last notification since the last input ("\a" for a bare bell); "" none
}

// Rows reads rows of the rendered screen (a screen.Screen): only those a rule needs.
type Rows interface {
	Top(n int) []string
	Bottom(n int) []string
}

// Input is what the rules read at one moment.
type Input struct {
	Signals Signals
	Screen  Rows // nil: no screen (a clause over it does not match)
}

// reading is one evaluation's reads, each region read at most once.
type reading struct {
	in   Input
	read map[Region][]string
}

func (rd *reading) lines(r Region) []string {
	if l, ok := rd.read[r]; ok {
		return l
	}
	var l []string
	s := rd.in.Signals
	switch r.Kind {
	case RegionTitle:
		l = []string{s.Title}
	case RegionAnnounce:
		l = []string{s.Announce}
	case RegionProgress:
		l = []string{s.Progress}
	case RegionNotice:
		l = []string{s.Notice}
	case RegionScreen:
		l = rd.rows(func(sc Rows) []string { return sc.Top(maxRows) })
	case RegionTop:
		l = rd.rows(func(sc Rows) []string { return sc.Top(r.N) })
	case RegionBottom:
		l = rd.rows(func(sc Rows) []string { return sc.Bottom(r.N) })
	}
	rd.read[r] = l
	return l
}

func (rd *reading) rows(f func(Rows) []string) []string {
	if rd.in.Screen == nil {
		return nil
	}
	return f(rd.in.Screen)
}

// check says whether c matches what rd reads, and if not, why.
func (c Clause) check(rd *reading) (bool, string) {
	text := strings.Join(rd.lines(c.Region), "\n")
	if len(c.Any) > 0 && !anyMatch(c.Any, text) {
		return false, fmt.Sprintf("%s: none of any %s", c.Region, quoted(c.Any))
	}
	for _, re := range c.All {
		if !re.MatchString(text) {
			return false, fmt.Sprintf("%s: no %s", c.Region, pattern(re))
		}
	}
	for _, re := range c.Not {
		if re.MatchString(text) {
			return false, fmt.Sprintf("%s: excluded by %s", c.Region, pattern(re))
		}
	}
	return true, ""
}

func anyMatch(res []*regexp.Regexp, text string) bool {
	for _, re := range res {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// pattern is a pattern as its file wrote it (without the (?m) every one gets).
func pattern(re *regexp.Regexp) string {
	return strconv.Quote(strings.TrimPrefix(re.String(), "(?m)"))
}

func quoted(res []*regexp.Regexp) string {
	q := make([]string, len(res))
	for i, re := range res {
		q[i] = pattern(re)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// match reports whether every clause of the rule matches, and the first that does not.
func (r Rule) match(rd *reading) (bool, string) {
	for _, c := range r.When {
		if ok, why := c.check(rd); !ok {
			return false, why
		}
	}
	return true, ""
}

// Verdict is a state and the rule that decided it.
type Verdict struct {
	State State  `json:"state"`
	Rule  string `json:"rule"` // "" when no rule matched (State is Unknown)
	// Context is what a notification quotes ("Do you want to proceed?"): the row the
	// rule's question patterns name, or else the line where its first pattern
	// matched; box drawing and padding cut (Clean).
	Context string `json:"context"`
	// Detail is at most one line of context the rule's detail patterns name (the
	// command a permission question is about); "" when none.
	Detail string `json:"detail,omitempty"`
	// Mode is the mode the screen shows the agent will not ask in ([[mode]]), looked
	// for at its prompt and while it works; "" when it shows none.
	Mode string `json:"mode,omitempty"`
}

// Evaluate decides the state: the first rule, by priority, whose clauses all match.
// It reads the screen only when a rule it reaches has a clause over it.
func (a *Agent) Evaluate(in Input) Verdict {
	rd := &reading{in: in, read: map[Region][]string{}}
	for _, r := range a.Rules {
		if ok, _ := r.match(rd); ok {
			v := r.verdict(rd)
			if v.State == Idle || v.State == Working {
				v.Mode = a.screenMode(rd)
			}
			return v
		}
	}
	return Verdict{}
}

// verdict is the rule's decision with what a notification quotes.
func (r Rule) verdict(rd *reading) Verdict {
	v := Verdict{State: r.State, Rule: r.Name, Context: r.quote(rd, r.Question), Detail: r.quote(rd, r.Detail)}
	if v.Context == "" {
		v.Context = r.context(rd)
	}
	return v
}

// quote is the text the first of pats to match the rule's regions names: its first
// capture group, or the row where the match begins; cleaned.
func (r Rule) quote(rd *reading, pats []*regexp.Regexp) string {
	for _, re := range pats {
		for _, c := range r.When {
			text := strings.Join(rd.lines(c.Region), "\n")
			m := re.FindStringSubmatchIndex(text)
			switch {
			case m == nil:
				continue
			case len(m) >= 4 && m[2] >= 0:
				return Clean(text[m[2]:m[3]])
			}
			from := strings.LastIndexByte(text[:m[0]], '\n') + 1
			to := strings.IndexByte(text[m[0]:], '\n')
			if to < 0 {
				to = len(text)
			} else {
				to += m[0]
			}
			return Clean(text[from:to])
		}
	}
	return ""
}

// Clean makes a screen's text a line fit to quote: box drawing and block elements
// (a dialog's borders, Gemini's │ … │) cut, every run of spaces, padding and line
// breaks one space, no control character, trimmed.
func Clean(s string) string {
	var b strings.Builder
	space := false
	for _, c := range s {
		switch {
		case c >= 0x2500 && c <= 0x259F: // box drawing, block elements
			space = true
			continue
		case unicode.IsSpace(c) || unicode.IsControl(c) || unicode.Is(unicode.Cf, c):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(c)
	}
	return b.String()
}

// context is the line of the first match of the rule's first pattern that must match.
func (r Rule) context(rd *reading) string {
	for _, c := range r.When {
		for _, re := range append(c.Any, c.All...) {
			for _, line := range rd.lines(c.Region) {
				if re.MatchString(line) {
					return Clean(line)
				}
			}
		}
	}
	return ""
}

// Explanation is Evaluate shown at work: every rule with whether it matched and
// why not, and each region with the text it read.
type Explanation struct {
	Verdict
	Agent   string       `json:"agent"`
	Source  string       `json:"source"`
	Checks  []Check      `json:"checks"`
	Regions []RegionText `json:"regions"`
}

// Check is one rule's outcome.
type Check struct {
	Rule     string `json:"rule"`
	State    State  `json:"state"`
	Priority int    `json:"priority"`
	Matched  bool   `json:"matched"`
	// Why is, for a rule that matched, what each clause found and where (`title: "^✳"
	// matched "✳ Claude Code"`, `bottom 8: "proceed\\?" matched "Do you want to
	// proceed?" in its row 3`); for one that did not, the clause that failed.
	Why string `json:"why,omitempty"`
}

// RegionText is a region and what it held.
type RegionText struct {
	Region string   `json:"region"`
	Lines  []string `json:"lines"`
}

// Explain evaluates every rule (the first match decides, as in Evaluate) and says
// what each read.
func (a *Agent) Explain(in Input) Explanation {
	rd := &reading{in: in, read: map[Region][]string{}}
	e := Explanation{Agent: a.Name, Source: a.Source}
	decided := false
	for _, r := range a.Rules {
		ok, why := r.match(rd)
		if ok {
			why = r.matchedWhy(rd)
		}
		e.Checks = append(e.Checks, Check{Rule: r.Name, State: r.State, Priority: r.Priority, Matched: ok, Why: why})
		if ok && !decided {
			e.Verdict, decided = r.verdict(rd), true
		}
		for _, c := range r.When {
			rd.lines(c.Region) // every region a rule names is shown, matched or not
		}
	}
	for _, r := range sortedRegions(rd.read) {
		e.Regions = append(e.Regions, RegionText{Region: r.String(), Lines: rd.read[r]})
	}
	return e
}

// matchedWhy says why a rule that matched did: each clause's finds, "; " between.
// Explain alone computes it; Evaluate, on every change of the screen, does not.
func (r Rule) matchedWhy(rd *reading) string {
	parts := make([]string, len(r.When))
	for i, c := range r.When {
		parts[i] = c.matchedWhy(rd)
	}
	return strings.Join(parts, "; ")
}

// matchedWhy is what a clause that matched found: the pattern of its any that
// matched first and each of its all, with the text each matched on (its blanks
// squeezed: a box's padding; a screen row's number in the region), then that none of
// its not did.
func (c Clause) matchedWhy(rd *reading) string {
	lines := rd.lines(c.Region)
	text := strings.Join(lines, "\n")
	var found []string
	at := func(re *regexp.Regexp) {
		loc := re.FindStringIndex(text)
		if loc == nil { // cannot be: the clause matched
			return
		}
		n := strings.Count(text[:loc[0]], "\n")
		s := pattern(re) + " matched " + strconv.Quote(clip(strings.Join(strings.Fields(lines[n]), " "), whyTextMax))
		if c.Region.onScreen() {
			s += " in its row " + strconv.Itoa(n+1)
		}
		found = append(found, s)
	}
	for _, re := range c.Any {
		if re.MatchString(text) {
			at(re)
			break
		}
	}
	for _, re := range c.All {
		at(re)
	}
	if len(c.Not) > 0 {
		found = append(found, "none of not "+quoted(c.Not))
	}
	return c.Region.String() + ": " + strings.Join(found, ", ")
}

// whyTextMax bounds the text a reason quotes, in runes.
const whyTextMax = 80

// clip is s cut to n runes, with "…" when it was longer.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func sortedRegions(m map[Region][]string) []Region {
	var out []Region
	for k := RegionTitle; k <= RegionBottom; k++ {
		for r := range m {
			if r.Kind == k {
				out = append(out, r)
			}
		}
	}
	// Rows regions of one kind by size, so the output is stable.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Kind == out[j-1].Kind && out[j].N < out[j-1].N; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

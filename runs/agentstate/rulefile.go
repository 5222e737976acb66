package agentstate

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"corral/config"
	"corral/ptyhost/keys"
)

// A rule file (TOML) describes one agent:
//
//	agent    = "claude"                       # its id (required)
//	title    = "Claude Code"
//	commands = ["claude"]                     # argv[0] base names
//	packages = ["@anthropic-ai/claude-code"]  # npm packages (npx, node …/cli.js)
//	recorded = ["2.1.197", "2.1.332"]         # the CLI's versions the rules were checked against
//
//	[[rule]]
//	name     = "permission"                   # unique in the file (required)
//	state    = "waiting"                      # working, waiting, idle or unknown (required)
//	priority = 100                            # higher is tried first (default 0)
//	region   = "bottom 20"                    # one clause inline …
//	all      = ['Do you want to', '1\. Yes']
//	not      = ['esc to interrupt']
//	question = ['Do you want to proceed\?']    # the row a notification quotes (optional)
//	detail   = ['^ *\$ (.+)']                  # its one line of context (optional)
//	approve  = ["Enter"]                      # keys that say yes to it (send-keys words; optional)
//	deny     = ["Escape"]                     # keys that say no (optional)
//
//	  [[rule.when]]                           # … or several, all of which must match
//	  region = "title"
//	  any    = ['^[\x{2801}-\x{28FF}]']
//
//	[[mode]]                                  # a mode in which the agent will not ask
//	name     = "auto"
//	flags    = ["--permission-mode auto"]     # words that start it in the mode
//	region   = "bottom 8"                     # where the screen shows it (optional)
//	any      = ['⏵⏵ auto mode on']
//
// Every problem is reported with its line, and a file with any is not used.

// ParseRules reads a rule file; path names it in errors and as the agent's Source.
func ParseRules(path string, data []byte) (*Agent, error) {
	tables, err := config.ReadTOML(path, data)
	if err != nil {
		return nil, err
	}
	p := &ruleParser{path: path, agent: &Agent{Source: path}}
	for _, t := range tables {
		p.table(t)
	}
	p.finish()
	if len(p.errs) > 0 {
		return nil, joinErrs(p.errs)
	}
	slices.SortStableFunc(p.agent.Rules, func(a, b Rule) int { return b.Priority - a.Priority })
	return p.agent, nil
}

type ruleParser struct {
	path  string
	agent *Agent
	line  int // of the top level's first key, for errors about the file as a whole
	errs  []error
}

func (p *ruleParser) fail(line int, in, key, format string, a ...any) {
	p.errs = append(p.errs, &config.Error{Path: p.path, Line: line, In: in, Key: key, Msg: fmt.Sprintf(format, a...)})
}

func (p *ruleParser) table(t config.TOMLTable) {
	switch {
	case t.Key == nil:
		p.top(t)
	case t.Array && slices.Equal(t.Key, []string{"rule"}):
		p.rule(t)
	case t.Array && slices.Equal(t.Key, []string{"rule", "when"}):
		p.when(t)
	case !t.Array && slices.Equal(t.Key, []string{"session"}):
		p.session(t)
	case t.Array && slices.Equal(t.Key, []string{"mode"}):
		p.mode(t)
	default:
		p.fail(t.Line, "", "", "unknown table %v (want [[rule]], [[rule.when]], [[mode]] or [session])", t.Key)
	}
}

var topKeys = []string{"agent", "title", "commands", "packages", "recorded"}

func (p *ruleParser) top(t config.TOMLTable) {
	a := p.agent
	for _, kv := range t.Pairs {
		key := kv.Key[0]
		if p.line == 0 {
			p.line = kv.Line
		}
		switch key {
		case "agent":
			a.Name = p.str(kv, "")
		case "title":
			a.Title = p.str(kv, "")
		case "commands":
			a.Commands = p.strs(kv, "")
		case "packages":
			a.Packages = p.strs(kv, "")
		case "recorded":
			a.Recorded = p.strs(kv, "")
		default:
			p.unknown(kv, "", topKeys)
		}
	}
}

var ruleKeys = []string{"name", "state", "priority", "region", "any", "all", "not", "question", "detail", "approve", "deny"}

func (p *ruleParser) rule(t config.TOMLTable) {
	r := Rule{Line: t.Line}
	in := fmt.Sprintf("rule #%d", len(p.agent.Rules)+1)
	var inline clauseSpec
	for _, kv := range t.Pairs {
		switch kv.Key[0] {
		case "name":
			r.Name = p.str(kv, in)
		case "state":
			if s, err := ParseState(p.str(kv, in)); err != nil {
				p.fail(kv.Line, in, "state", "%v", err)
			} else {
				r.State = s
			}
		case "priority":
			r.Priority = p.int(kv, in)
		case "question":
			r.Question = p.patterns(kv, in)
		case "detail":
			r.Detail = p.patterns(kv, in)
		case "approve":
			r.Approve = p.keyWords(kv, in)
		case "deny":
			r.Deny = p.keyWords(kv, in)
		case "region", "any", "all", "not":
			inline.set(p, kv, in)
		default:
			p.unknown(kv, in, ruleKeys)
		}
	}
	if inline.given {
		r.When = append(r.When, inline.clause(p, t.Line, in))
	}
	p.agent.Rules = append(p.agent.Rules, r)
}

var modeKeys = []string{"name", "flags", "region", "any", "all", "not"}

// mode reads a [[mode]] table: a mode in which the agent will not ask, by its flags
// and, when the screen shows it, one clause.
func (p *ruleParser) mode(t config.TOMLTable) {
	m := Mode{Line: t.Line}
	in := fmt.Sprintf("mode #%d", len(p.agent.Modes)+1)
	var c clauseSpec
	for _, kv := range t.Pairs {
		switch kv.Key[0] {
		case "name":
			m.Name = p.str(kv, in)
		case "flags":
			m.Flags = modeFlags(p.strs(kv, in))
		case "region", "any", "all", "not":
			c.set(p, kv, in)
		default:
			p.unknown(kv, in, modeKeys)
		}
	}
	if c.given {
		m.When = append(m.When, c.clause(p, t.Line, in))
	}
	switch {
	case m.Name == "":
		p.fail(t.Line, in, "name", "missing")
	case len(m.Flags) == 0 && len(m.When) == 0:
		p.fail(t.Line, in, "", "neither flags nor a screen clause: nothing says the agent is in it")
	}
	for _, f := range m.Flags {
		if len(f) > 2 {
			p.fail(t.Line, in, "flags", "%q: a flag is one word or a word and its value", strings.Join(f, " "))
		}
	}
	p.agent.Modes = append(p.agent.Modes, m)
}

var sessionKeys = []string{"pin", "given", "no_pin", "id", "resume", "drop", "valued", "prompt", "hook", "files"}

// session reads the [session] table: how the agent names and resumes a conversation.
func (p *ruleParser) session(t config.TOMLTable) {
	s := &Session{Line: t.Line}
	const in = "session"
	for _, kv := range t.Pairs {
		switch kv.Key[0] {
		case "pin":
			s.Pin = p.strs(kv, in)
		case "given":
			s.Given = p.strs(kv, in)
		case "no_pin":
			s.NoPin = p.strs(kv, in)
		case "id":
			if re, err := regexp.Compile(p.str(kv, in)); err != nil {
				p.fail(kv.Line, in, "id", "pattern: %v", err)
			} else {
				s.ID = re
			}
		case "resume":
			s.Resume = p.strs(kv, in)
		case "drop":
			s.Drop = p.strs(kv, in)
		case "valued":
			s.Valued = p.strs(kv, in)
		case "prompt":
			if kv.Value.Kind != "bool" {
				p.fail(kv.Line, in, "prompt", "want true or false, not a %s", kv.Value.Kind)
			}
			s.Prompt = kv.Value.Text == "true"
		case "hook":
			s.Hook = p.strs(kv, in)
		case "files":
			s.Files = p.str(kv, in)
			if s.Files != "" && !slices.Contains(sessionFileLayouts, s.Files) {
				p.fail(kv.Line, in, "files", "unknown layout %q (known: %v)", s.Files, sessionFileLayouts)
			}
		default:
			p.unknown(kv, in, sessionKeys)
		}
	}
	for _, key := range []struct {
		name  string
		words []string
	}{{"pin", s.Pin}, {"resume", s.Resume}} {
		if len(key.words) > 0 && !slices.ContainsFunc(key.words, func(w string) bool { return strings.Contains(w, idWord) }) {
			p.fail(t.Line, in, key.name, "no %s in %q: say where the id goes", idWord, key.words)
		}
	}
	p.agent.Session = s
}

func (p *ruleParser) when(t config.TOMLTable) {
	if len(p.agent.Rules) == 0 {
		p.fail(t.Line, "", "", "[[rule.when]] before any [[rule]]")
		return
	}
	r := &p.agent.Rules[len(p.agent.Rules)-1]
	in := fmt.Sprintf("rule #%d", len(p.agent.Rules))
	var c clauseSpec
	for _, kv := range t.Pairs {
		switch kv.Key[0] {
		case "region", "any", "all", "not":
			c.set(p, kv, in)
		default:
			p.unknown(kv, in, []string{"region", "any", "all", "not"})
		}
	}
	r.When = append(r.When, c.clause(p, t.Line, in))
}

// finish checks what needs the whole file: the agent's name, unique rule names, and
// rules that can match at all.
func (p *ruleParser) finish() {
	a := p.agent
	if a.Name == "" {
		p.fail(max(p.line, 1), "", "agent", "missing: every rule file names its agent")
	}
	seen := map[string]int{}
	for i, r := range a.Rules {
		in := fmt.Sprintf("rule #%d", i+1)
		switch {
		case r.Name == "":
			p.fail(r.Line, in, "name", "missing")
		case seen[r.Name] > 0:
			p.fail(r.Line, in, "name", "%q is also the name of the rule at line %d", r.Name, seen[r.Name])
		default:
			seen[r.Name] = r.Line
		}
		if len(r.When) == 0 {
			p.fail(r.Line, in, "", "no clause: give region and patterns, or [[rule.when]] tables")
		} else if !slices.ContainsFunc(r.When, func(c Clause) bool { return len(c.Any)+len(c.All) > 0 }) {
			p.fail(r.Line, in, "", "only exclusions (not): a rule needs a pattern that must match (any or all)")
		}
	}
}

// clauseSpec is one clause as written.
type clauseSpec struct {
	given         bool
	region        string
	regionLine    int
	any, all, not []*regexp.Regexp
}

func (c *clauseSpec) set(p *ruleParser, kv config.TOMLPair, in string) {
	c.given = true
	switch kv.Key[0] {
	case "region":
		c.region, c.regionLine = p.str(kv, in), kv.Line
	case "any":
		c.any = p.patterns(kv, in)
	case "all":
		c.all = p.patterns(kv, in)
	case "not":
		c.not = p.patterns(kv, in)
	}
}

func (c *clauseSpec) clause(p *ruleParser, line int, in string) Clause {
	out := Clause{Any: c.any, All: c.all, Not: c.not}
	if c.region == "" {
		p.fail(line, in, "region", "missing: say where the patterns look (title, screen, bottom 20, …)")
		return out
	}
	r, err := parseRegion(c.region)
	if err != nil {
		p.fail(c.regionLine, in, "region", "%v", err)
	}
	out.Region = r
	return out
}

func (p *ruleParser) str(kv config.TOMLPair, in string) string {
	if kv.Value.Kind != "string" {
		p.fail(kv.Line, in, kv.Key[0], "want a string, not a %s", kv.Value.Kind)
		return ""
	}
	return kv.Value.Text
}

func (p *ruleParser) int(kv config.TOMLPair, in string) int {
	n, err := strconv.Atoi(kv.Value.Text)
	if kv.Value.Kind != "integer" || err != nil {
		p.fail(kv.Line, in, kv.Key[0], "want an integer, not %q", kv.Value.Text)
	}
	return n
}

// keyWords reads send-keys words (key names, or text): what answers a question.
func (p *ruleParser) keyWords(kv config.TOMLPair, in string) []string {
	words := p.strs(kv, in)
	if _, err := keys.ParseSendKeysArgs(words); err != nil {
		p.fail(kv.Line, in, kv.Key[0], "%v", err)
		return nil
	}
	return words
}

func (p *ruleParser) strs(kv config.TOMLPair, in string) []string {
	if kv.Value.Kind != "array" {
		p.fail(kv.Line, in, kv.Key[0], "want an array of strings, not a %s", kv.Value.Kind)
		return nil
	}
	var out []string
	for _, e := range kv.Value.Elems {
		if e.Kind != "string" {
			p.fail(e.Line, in, kv.Key[0], "want strings, not a %s", e.Kind)
			continue
		}
		out = append(out, e.Text)
	}
	return out
}

// patterns compiles an array of patterns, ^ and $ at line ends.
func (p *ruleParser) patterns(kv config.TOMLPair, in string) []*regexp.Regexp {
	if kv.Value.Kind != "array" {
		p.fail(kv.Line, in, kv.Key[0], "want an array of patterns, not a %s", kv.Value.Kind)
		return nil
	}
	var out []*regexp.Regexp
	for _, e := range kv.Value.Elems {
		re, err := regexp.Compile("(?m)" + e.Text)
		switch {
		case e.Kind != "string":
			p.fail(e.Line, in, kv.Key[0], "want patterns as strings, not a %s", e.Kind)
		case err != nil:
			p.fail(e.Line, in, kv.Key[0], "pattern %q: %v", e.Text, err)
		default:
			out = append(out, re)
		}
	}
	return out
}

func (p *ruleParser) unknown(kv config.TOMLPair, in string, known []string) {
	msg := "unknown key"
	if s := config.Closest(kv.Key[0], known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	p.fail(kv.Line, in, kv.Key[0], "%s", msg)
}

func joinErrs(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return config.Errors(errs)
}

// IsRulesError reports whether err is a problem in a rule file (rather than, say, a
// file that cannot be read).
func IsRulesError(err error) bool { return errors.Is(err, config.ErrInvalid) }

package config

import (
	"github.com/pelletier/go-toml/v2/unstable"
)

// The TOML layer for other files that must name their lines too (the agent-state
// rule files, runs/agentstate): a document as its tables in file order, every key and
// value with its line.

// TOMLTable is one [table] or [[array table]] (the top level has a nil Key).
type TOMLTable struct {
	Key   []string
	Array bool
	Line  int
	Pairs []TOMLPair
}

// TOMLPair is one key = value, its key relative to its table.
type TOMLPair struct {
	Key   []string
	Line  int
	Value TOMLValue
}

// TOMLValue is a value: Kind is "string", "integer", "float", "bool", "array",
// "table" (inline) or "date"; Text is a string's decoded text or a scalar's literal.
type TOMLValue struct {
	Kind  string
	Line  int
	Text  string
	Elems []TOMLValue
	Pairs []TOMLPair
}

// ReadTOML checks data as TOML (the first error with its line, as a *Error of path)
// and returns its tables.
func ReadTOML(path string, data []byte) ([]TOMLTable, error) {
	if err := checkTOML(path, data); err != nil {
		return nil, err
	}
	ts, err := readTables(path, data)
	if err != nil {
		return nil, err
	}
	out := make([]TOMLTable, len(ts))
	for i, t := range ts {
		out[i] = TOMLTable{Key: t.key, Array: t.array, Line: t.line, Pairs: exportPairs(t.pairs)}
	}
	return out, nil
}

func exportPairs(ps []pair) []TOMLPair {
	out := make([]TOMLPair, len(ps))
	for i, p := range ps {
		out[i] = TOMLPair{Key: p.key, Line: p.line, Value: exportValue(p.val)}
	}
	return out
}

func exportValue(v value) TOMLValue {
	out := TOMLValue{Kind: kindWord(v.kind), Line: v.line, Text: v.text, Pairs: exportPairs(v.pairs)}
	for _, e := range v.elems {
		out.Elems = append(out.Elems, exportValue(e))
	}
	return out
}

func kindWord(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "string"
	case unstable.Integer:
		return "integer"
	case unstable.Float:
		return "float"
	case unstable.Bool:
		return "bool"
	case unstable.Array:
		return "array"
	case unstable.InlineTable:
		return "table"
	}
	return "date"
}

// Closest is the candidate nearest to a misspelt s, or "" when none is near (for a
// did-you-mean).
func Closest(s string, candidates []string) string { return closest(s, candidates) }

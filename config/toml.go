package config

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// The TOML layer. go-toml's Decoder is the judge of TOML itself (syntax, duplicate
// keys, a table defined twice, a value redefined as a table), because those rules
// are easy to get subtly wrong by hand. But decoding into Go values loses where each
// key was, and every schema error must name its line, so the document is walked a
// second time with go-toml's AST parser and copied into the small tree below, every
// node carrying its line. The AST parser is go-toml's "unstable" API; it is used for
// positions only and the version is pinned in go.mod.

// table is one [table] or [[array table]] of the document (the top level has a nil
// key), with its key/value pairs in file order.
type table struct {
	key   []string
	array bool
	line  int
	pairs []pair
}

// pair is one key = value; key is relative to its table and dotted keys keep
// their parts.
type pair struct {
	key  []string
	line int
	val  value
}

// value is a TOML value copied out of the AST, which is only valid until the
// parser moves to the next expression.
type value struct {
	kind  unstable.Kind
	line  int
	text  string  // decoded string, or the literal of a number, bool or date
	elems []value // Array
	pairs []pair  // InlineTable
}

// checkTOML reports the first way data is not valid TOML, with its line.
func checkTOML(path string, data []byte) error {
	var m map[string]any
	err := toml.NewDecoder(bytes.NewReader(data)).Decode(&m)
	if err == nil {
		return nil
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		return &Error{Path: path, Line: line, Msg: tomlMsg(de.Error())}
	}
	return &Error{Path: path, Msg: tomlMsg(err.Error())}
}

func tomlMsg(s string) string {
	return "TOML: " + strings.TrimPrefix(s, "toml: ")
}

// readTables walks data (already accepted by checkTOML) into tables.
func readTables(path string, data []byte) ([]table, error) {
	r := reader{lines: lineStarts(data)}
	var p unstable.Parser
	p.Reset(data)
	tables := []table{{line: 1}}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.KeyValue:
			cur := &tables[len(tables)-1]
			cur.pairs = append(cur.pairs, r.pair(e))
		case unstable.Table, unstable.ArrayTable:
			key, line := r.key(e.Key())
			tables = append(tables, table{key: key, array: e.Kind == unstable.ArrayTable, line: line})
		}
	}
	if err := p.Error(); err != nil {
		// checkTOML has accepted the document, so this means the two parsers
		// disagree; report it rather than half a config.
		return nil, &Error{Path: path, Msg: tomlMsg(err.Error())}
	}
	return tables, nil
}

// reader copies AST nodes, turning byte offsets into lines.
type reader struct{ lines []int }

func (r reader) pair(kv *unstable.Node) pair {
	key, line := r.key(kv.Key())
	return pair{key: key, line: line, val: r.value(kv.Value(), line)}
}

func (r reader) key(it unstable.Iterator) ([]string, int) {
	var parts []string
	line := 0
	for it.Next() {
		n := it.Node()
		if line == 0 {
			line = r.line(n, 1)
		}
		parts = append(parts, string(n.Data))
	}
	return parts, line
}

// value copies n; keyLine stands in for nodes the parser gives no position
// (arrays).
func (r reader) value(n *unstable.Node, keyLine int) value {
	v := value{kind: n.Kind, line: r.line(n, keyLine), text: string(n.Data)}
	it := n.Children()
	for it.Next() {
		c := it.Node()
		switch n.Kind {
		case unstable.Array:
			v.elems = append(v.elems, r.value(c, v.line))
		case unstable.InlineTable:
			v.pairs = append(v.pairs, r.pair(c))
		}
	}
	return v
}

func (r reader) line(n *unstable.Node, fallback int) int {
	if n.Raw.Length == 0 {
		return fallback
	}
	// The number of line starts at or before the offset is the 1-based line.
	return sort.SearchInts(r.lines, int(n.Raw.Offset)+1)
}

// lineStarts lists the offset of every line's first byte.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// kindName says what a value is, for "want X, not Y" messages.
func kindName(v value) string {
	switch v.kind {
	case unstable.String:
		s := v.text
		if r := []rune(s); len(r) > 40 {
			s = string(r[:40]) + "…"
		}
		return fmt.Sprintf("the string %q", s)
	case unstable.Bool, unstable.Integer, unstable.Float:
		return v.text
	case unstable.Array:
		return "an array"
	case unstable.InlineTable:
		return "a table"
	default:
		return "a date"
	}
}

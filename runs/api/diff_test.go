package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"corral/runs"
)

// pager serves diff pages of size bytes of texts[0], another text at each call when
// changing (a run whose files change between two pages).
type pager struct {
	texts    [][]byte
	size     int
	calls    int
	changing bool
}

func (p *pager) Invoke(_ context.Context, op Operation, args any) (any, error) {
	a := args.(DiffArgs)
	text := p.texts[0]
	if p.changing { // a line more at every call
		text = append(fmt.Appendf(nil, "+%d\n", p.calls), text...)
	}
	p.calls++
	return diffPageOf(runs.DiffResult{Text: text}, a.Offset, p.size), nil
}

func TestDiffAllReadsEveryPage(t *testing.T) {
	var b strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&b, "+line %d of a large diff\n", i)
	}
	text := []byte(b.String())
	p := &pager{texts: [][]byte{text}, size: len(text) / 7}
	d, err := DiffAll(context.Background(), p, DiffArgs{ID: "r1"})
	if err != nil || !bytes.Equal(d.Text, text) || p.calls != 8 {
		t.Fatalf("DiffAll: %d bytes of %d in %d calls, %v", len(d.Text), len(text), p.calls, err)
	}

	// Pages of different texts are never glued together.
	p = &pager{texts: [][]byte{text}, size: len(text) / 2, changing: true}
	if _, err := DiffAll(context.Background(), p, DiffArgs{ID: "r1"}); err == nil || !strings.Contains(err.Error(), "kept changing") {
		t.Fatalf("DiffAll of a text that changes under it: %v", err)
	}
}

// A 50,000-line diff's reply fits in one message: MaxMessage bounds every reply line.
func TestDiffPageFitsAMessage(t *testing.T) {
	long := bytes.Repeat([]byte("+"+strings.Repeat("x", 300)+"\n"), 50000) // 15 MB
	for off := 0; off < len(long); {
		page := diffPageOf(runs.DiffResult{Text: long}, off, diffPage)
		line, err := json.Marshal(Response{V: 1, Result: mustJSON(t, page)})
		if err != nil || len(line) > MaxMessage {
			t.Fatalf("page at %d: %d bytes of JSON (max %d), %v", off, len(line), MaxMessage, err)
		}
		off += len(page.Text)
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli/listing"
)

// corral ls's output as printed comes after the reply's line (Raw): the same bytes
// as the listing writes, the table or the indented document, and the connection
// reads on after them (the next reply is not taken for part of the body). A client
// that does not ask gets the document in the reply, as before.
func TestLsRawBody(t *testing.T) {
	doc := listing.Doc{}
	for i := range 300 { // a body far over one read of the client's buffer
		rec := runs.Record{ID: fmt.Sprintf("r%03d", i), Name: "sh \"quoted\" <&>", State: runs.Running,
			CreatedAt: time.Unix(1700000000, 0).UTC(), Logs: []string{"/tmp/a.log"}}
		doc.Runs = append(doc.Runs, listing.Run{Record: rec, OwnerAlive: true, CPUMS: new(int64(i))})
	}
	h := serveWith(t, t.TempDir(), Options{List: func(bool) (listing.Doc, error) { return doc, nil }})
	c := h.client(t)
	var wantJSON, wantTable bytes.Buffer
	listing.WriteJSON(&wantJSON, doc.Runs, doc.Metrics)
	listing.WriteTable(&wantTable, doc.Runs)
	for _, table := range []bool{false, true, false} {
		var rep api.LsReply
		if err := c.Call(ctx, api.Ls.Name(), api.LsArgs{Table: table, Raw: true}, &rep); err != nil {
			t.Fatal(err)
		}
		want := map[bool]*bytes.Buffer{false: &wantJSON, true: &wantTable}[table]
		got := rep.Printed
		if table { // its AGE column is the time since: its lines and their ids
			got, want = []byte(runIDs(string(got))), bytes.NewBufferString(runIDs(want.String()))
		}
		if !bytes.Equal(got, want.Bytes()) || rep.Doc != nil || rep.Table != "" {
			t.Fatalf("ls (table %v) raw: %d bytes printed, want %d; doc %d bytes, table %d", table, len(got),
				want.Len(), len(rep.Doc), len(rep.Table))
		}
		if _, err := api.Hello.Call(ctx, c, api.HelloArgs{Version: api.Version}); err != nil {
			t.Fatalf("the call after a body: %v", err)
		}
	}
	rep, err := api.Ls.Call(ctx, c, api.LsArgs{})
	if err != nil || rep.Printed != nil {
		t.Fatalf("ls without raw: %v, %d bytes printed", err, len(rep.Printed))
	}
	var b bytes.Buffer
	if err := json.Indent(&b, rep.Doc, "", "  "); err != nil || b.String()+"\n" != wantJSON.String() {
		t.Fatalf("ls without raw: %v:\n%.200s", err, b.String())
	}
	// The raw reply's own line carries no document: what the client reads as JSON is
	// a few bytes whatever the listing's size.
	resp := h.raw(t, `{"v":1,"verb":"ls","args":{"raw":true}}`+"\n")
	if resp.Body != wantJSON.Len() || len(resp.Result) > 16 || strings.Contains(string(resp.Result), "r000") {
		t.Fatalf("raw reply line: body %d (want %d), result %s", resp.Body, wantJSON.Len(), resp.Result)
	}
}

// runIDs is a table's first column, a line each.
func runIDs(table string) string {
	var ids []string
	for l := range strings.Lines(table) {
		ids = append(ids, strings.Fields(l)[0])
	}
	return strings.Join(ids, "\n")
}

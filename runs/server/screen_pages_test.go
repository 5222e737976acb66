package server

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/api"
)

// A run's screen with its history larger than one message is read in pages: one
// reply stays within the protocol's bound, and api.ScreenAll puts every line
// together. Before: corral screen --history of such a run failed "message too large".
func TestScreenHistoryInPages(t *testing.T) {
	dir := t.TempDir()
	d := config.Default()
	d.Grace = 300 * time.Millisecond
	sup, err := runs.New(runs.WithDefaults(d), runs.WithLogDir(filepath.Join(dir, "logs")), runs.WithScreens())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := New(sup, Options{Instance: "test", StateDir: dir})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Stop()
		<-served
		ln.Close()
		sup.Shutdown(context.Background())
	})
	h := &harness{dir: dir, sup: sup, ln: ln, srv: srv}

	const lines, width = 9500, 1000 // 9.5 MB of history, over api.MaxMessage
	id, err := sup.Spawn(runs.Spec{PTY: true, Cols: width, Rows: 20,
		Shell: `yes "$(printf '%01000d' 7)" | head -9500`})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	if _, err := sup.Wait(wctx, id); err != nil {
		t.Fatal(err)
	}
	c := h.client(t)
	args := api.ScreenArgs{ID: id, History: true}
	// Each page renders the whole capture: under the race detector on a loaded
	// machine that takes longer than the operation's default budget.
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	first, err := api.Screen.Call(ctx, c, args)
	if err != nil {
		t.Fatalf("the first page: %v", err)
	}
	if first.TotalLines == 0 || len(first.Lines) >= first.TotalLines {
		t.Fatalf("one reply of %d lines (total %d): not paged", len(first.Lines), first.TotalLines)
	}
	all, err := api.ScreenAll(ctx, c, args)
	if err != nil {
		t.Fatal(err)
	}
	full := strings.Repeat("0", width-1) + "7"
	n := 0
	for _, l := range all.Lines {
		if l == full {
			n++
		}
	}
	if n != lines || all.TotalLines != 0 || all.From != 0 {
		t.Errorf("%d full lines of %d (in %d lines), want %d", n, len(all.Lines), all.HistoryLines, lines)
	}
}

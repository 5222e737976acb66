//go:build unix

package launch

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/demo"
	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/client"
	"corral/runs/server"
	"corral/ui"
)

// A UI attached with its first rows only (the rest of the runs on their way) starts
// the configured runs its server does not run once every run is listed, and each
// once: a configured run that runs already, listed after the first rows, is not
// started again, and one that does not run is started once.
func TestConfiguredRunsStartOnceOverAListInTwoParts(t *testing.T) {
	dir := t.TempDir()
	d := config.Default()
	d.Grace = 200 * time.Millisecond
	sup, err := runs.New(runs.WithDefaults(d), runs.WithScreens(), runs.WithLogDir(filepath.Join(dir, "logs")))
	if err != nil {
		t.Fatal(err)
	}
	defer sup.Shutdown(context.Background())
	argv, env := demo.Child("sleep")
	svc := runs.Spec{Name: "svc", Argv: argv, Env: env}
	fresh := runs.Spec{Name: "fresh", Argv: argv, Env: env}
	for range 30 {
		if _, err := sup.Spawn(runs.Spec{Argv: []string{"true"}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sup.Spawn(svc); err != nil { // the 31st run: not among the first rows
		t.Fatal(err)
	}
	ln, err := server.Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(sup, server.Options{StateDir: dir})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() { srv.Stop(); <-served; ln.Close() }()

	engine, err := client.AttachFirst(dir, 10, func() error { return errors.New("no server") }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	if len(engine.Initial()) != 10 || engine.Rest().Runs != 21 {
		t.Fatalf("attached with %d runs, the rest %+v", len(engine.Initial()), engine.Rest())
	}
	m, err := attachedModel(engine, Target{Dir: dir}, Runs{Start: []runs.Spec{svc, fresh}, Configured: []runs.Spec{svc, fresh}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	ran := make(chan struct{})
	go func() { defer close(ran); p.Run() }()
	defer func() { p.Quit(); <-ran }()
	ctx, cancel := context.WithCancel(context.Background())
	bridged := make(chan struct{})
	go func() { defer close(bridged); ui.Bridge(ctx, engine.Events(), p.Send, 0) }()
	defer func() { cancel(); <-bridged }()
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 30})

	live := func(name string) int {
		n := 0
		for _, i := range sup.Snapshot() {
			if i.Name == name && !i.Ended() {
				n++
			}
		}
		return n
	}
	// fresh is started after svc would be (config order): once it runs, both were decided.
	eventually.True(t, 20*time.Second, "the configured run that did not run started", func() bool { return live("fresh") > 0 })
	if n, k := live("svc"), live("fresh"); n != 1 || k != 1 {
		t.Errorf("%d runs of svc (it ran already: want 1) and %d of fresh (want 1)", n, k)
	}

	// corral web's engine (Open) starts from every run: its hub lists them at once.
	web, err := Open(Target{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	if n, want := len(web.Initial()), len(sup.Snapshot()); n != want {
		t.Errorf("corral web's engine starts from %d runs of %d", n, want)
	}
}

package launch

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/demo"
	"corral/demo/testkit"
	"corral/runs"
	"corral/ui"
	"corral/ui/dialog"
)

// TestMain lets the test binary double as the child programs the runs here run.
func TestMain(m *testing.M) { testkit.Main(m) }

// Autoplay answers a question once it could have been read. A loaded machine may
// leave the UI busy while the keys queue up, so it reads the cancel key and the
// answer back to back; the guard then ignores the answer as typed ahead, and the
// demo waited for a cancel that never came (seen once in CI). Here the UI, a real
// one over a supervisor, stalls before its first key, as it did there.
func TestAutoplayAnswersAStalledUI(t *testing.T) {
	state := t.TempDir()
	reg, err := runs.OpenRegistry(filepath.Join(state, "state"), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	sup, err := runs.New(runs.WithDefaults(config.Default()), runs.WithRegistry(reg), runs.WithLogDir(filepath.Join(state, "logs")))
	if err != nil {
		t.Fatal(err)
	}
	defer sup.Shutdown(context.Background())
	argv, env := demo.Child("sleep")
	if _, err := sup.Spawn(runs.Spec{Name: "sleeper", Argv: argv, Env: env}); err != nil {
		t.Fatal(err)
	}
	m, err := ui.New(ui.Options{Engine: ui.Local{Supervisor: sup}, Initial: sup.Snapshot()})
	if err != nil {
		t.Fatal(err)
	}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	ran := make(chan struct{})
	go func() { defer close(ran); p.Run() }()
	defer func() { p.Quit(); <-ran }()
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 30})

	msgs := make(chan tea.Msg, 64)
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		stalled := false
		for msg := range msgs {
			if _, ok := msg.(tea.KeyPressMsg); ok && !stalled {
				stalled = true
				time.Sleep(3 * dialog.AnswerGrace) // busy when the key came: it and the next wait
			}
			p.Send(msg)
		}
	}()
	a := autoplayer{send: func(m tea.Msg) { msgs <- m }, sup: sup}
	if err := a.waitSelected("sleeper"); err != nil {
		t.Fatal(err)
	}
	a.key("x")
	err = a.answer("y")
	close(msgs)
	<-forwarded
	if err != nil {
		t.Fatal(err)
	}
	if err := a.waitReason("sleeper", runs.ManualCancel, 20*time.Second); err != nil {
		t.Fatalf("the answer did not cancel: %v", err)
	}
}

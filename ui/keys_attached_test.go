//go:build linux

package ui

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/demo"
	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/client"
)

// TestAttachedKeyUsesRunsCurrentModes: an attached UI's key is encoded at
// the run with the modes its app has set by then, even when that mode change is newer
// than the last frame the UI got. The app switches to application cursor keys ('+'
// makes the keys child do it) while the UI's frames are held back; the very next
// arrow key reaches it as ESC O A, not as the ESC [ A the UI's stale frame implies.
func TestAttachedKeyUsesRunsCurrentModes(t *testing.T) {
	c := newLiveEngine(t, 1<<20)
	defer c.close()
	c.stream = &holdableConn{}
	l := c.attachVia(t, nil, true)
	argv, env := demo.Child("keys", "switch")
	id, err := c.sup.Spawn(runs.Spec{Name: "keys", Argv: argv, Env: env, PTY: true, Cols: 120, Rows: 40})
	if err != nil {
		t.Fatal(err)
	}
	logHas := func(s string) bool {
		out, _ := c.sup.Log(id)
		return strings.Contains(string(out.Bytes()), s)
	}
	eventually.True(t, 20*time.Second, "the keys child to be ready", func() bool { return logHas("ready") })
	eventually.True(t, 20*time.Second, "the UI to select the run", func() bool {
		var ok bool
		l.do(func(m Model) { sel, has := m.list.Selected(); ok = has && sel.ID == id && !sel.Ended() })
		return ok
	})
	l.send(keyMsg("enter"))
	var focused bool
	l.do(func(m Model) { focused = m.mode == modeFocus })
	if !focused {
		t.Fatal("the terminal pane did not take the focus")
	}

	c.stream.hold()
	defer c.stream.release()
	l.send(tea.KeyPressMsg{Code: '+', Text: "+"})
	eventually.True(t, 20*time.Second, "the run's screen to switch to application cursor keys", func() bool {
		scr, err := c.sup.Screen(id)
		return err == nil && scr != nil && scr.Modes().AppCursor && logHas(fmt.Sprintf("got %x\r\n", "+"))
	})
	var stale bool
	l.do(func(m Model) { stale = !m.term.ReadState().Modes.AppCursor })
	if !stale {
		t.Fatal("the UI's frame already shows the switch: the test proves nothing")
	}
	l.send(tea.KeyPressMsg{Code: tea.KeyUp})
	eventually.True(t, 20*time.Second, "the arrow key to reach the app", func() bool {
		return logHas(fmt.Sprintf("got %x\r\n", "\x1bOA")) || logHas(fmt.Sprintf("got %x\r\n", "\x1b[A"))
	})
	if !logHas(fmt.Sprintf("got %x\r\n", "\x1bOA")) {
		out, _ := c.sup.Log(id)
		t.Fatalf("the arrow key was encoded with the UI's stale modes:\n%q", out.Bytes())
	}
}

// holdableConn is an attachment's stream connection that a test can hold: what the
// server sends meanwhile is delivered when it is released (a read in flight keeps
// what it got).
type holdableConn struct {
	net.Conn
	mu   sync.Mutex
	cond *sync.Cond
	held bool
}

// dialThird dials the state dir's server for client.AttachWith, which opens the
// control, input and stream connections in that order; the third is h.
func (h *holdableConn) dialThird(dir string) func() (*client.Client, error) {
	h.cond = sync.NewCond(&h.mu)
	n := 0
	return func() (*client.Client, error) {
		conn, err := client.DialSocket(dir)
		if err != nil {
			return nil, err
		}
		if n++; n == 3 {
			h.Conn = conn
			return client.NewClient(h)
		}
		return client.NewClient(conn)
	}
}

func (h *holdableConn) Read(p []byte) (int, error) {
	n, err := h.Conn.Read(p)
	h.mu.Lock()
	for h.held {
		h.cond.Wait()
	}
	h.mu.Unlock()
	return n, err
}

func (h *holdableConn) hold() {
	h.mu.Lock()
	h.held = true
	h.mu.Unlock()
}

func (h *holdableConn) release() {
	h.mu.Lock()
	h.held = false
	h.cond.Broadcast()
	h.mu.Unlock()
}

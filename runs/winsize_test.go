package runs

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
)

// The policy alone: latest is the size of the viewer active last; smallest and largest
// take the columns and the rows each on its own, as tmux does.
func TestWindowSizePolicy(t *testing.T) {
	a := viewerSize{cols: 120, rows: 20, at: 1}
	b := viewerSize{cols: 80, rows: 40, at: 3}
	c := viewerSize{cols: 100, rows: 30, at: 2}
	for _, tc := range []struct {
		policy     string
		sizes      []viewerSize
		cols, rows uint16
	}{
		{config.WindowLatest, []viewerSize{a, b, c}, 80, 40},
		{"", []viewerSize{c, a}, 100, 30}, // "" is latest
		{config.WindowSmallest, []viewerSize{a, b, c}, 80, 20},
		{config.WindowLargest, []viewerSize{a, b, c}, 120, 40},
		{config.WindowSmallest, []viewerSize{c}, 100, 30},
		{config.WindowLargest, []viewerSize{b, c}, 100, 40},
	} {
		cols, rows, ok := windowSize(tc.policy, tc.sizes)
		if !ok || cols != tc.cols || rows != tc.rows {
			t.Errorf("%q over %v: %dx%d %v, want %dx%d", tc.policy, tc.sizes, cols, rows, ok, tc.cols, tc.rows)
		}
	}
	if _, _, ok := windowSize(config.WindowLargest, nil); ok {
		t.Error("no viewer gave a size")
	}
}

// childSize waits until run id's child says, on its screen, that its terminal is
// cols×rows (the winsize child reads it from the kernel on every SIGWINCH).
func childSize(t *testing.T, s *Supervisor, id string, cols, rows uint16, what string) {
	t.Helper()
	want := fmt.Sprintf("size %dx%d", cols, rows)
	eventually.True(t, 20*time.Second, what+": the child sees "+want, func() bool {
		scr, err := s.Screen(id)
		if err != nil || scr == nil {
			return false
		}
		first, _, _ := strings.Cut(scr.Text(), "\n")
		info, _ := s.Info(id)
		return strings.TrimSpace(first) == want && info.Cols == cols && info.Rows == rows
	})
}

// Two viewers of one run under each policy: the run's PTY takes the policy's size over
// the viewers showing it, every viewer's when none does; a viewer that stops showing
// it, or goes away, no longer counts.
func TestWindowSizeViewers(t *testing.T) {
	for _, policy := range []string{config.WindowLatest, config.WindowSmallest, config.WindowLargest} {
		t.Run(policy, func(t *testing.T) {
			s := newSup(t, WithScreens(), WithWindowSize(policy))
			id := spawn(t, s, childSpec(true, "winsize"))
			waitState(t, s, id, Running)
			pick := func(latest, small, large [2]uint16) [2]uint16 {
				return map[string][2]uint16{config.WindowLatest: latest, config.WindowSmallest: small,
					config.WindowLargest: large}[policy]
			}
			step := func(what string, want [2]uint16) {
				t.Helper()
				childSize(t, s, id, want[0], want[1], what)
			}
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			a, b := [2]uint16{100, 30}, [2]uint16{70, 45}
			must(s.Show("A", id))
			must(s.ResizeFor(id, "A", a[0], a[1]))
			step("A alone", a)
			must(s.Show("B", id))
			must(s.ResizeFor(id, "B", b[0], b[1]))
			step("A and B", pick(b, [2]uint16{70, 30}, [2]uint16{100, 45}))
			s.Active(id, "A") // A types into it
			step("A typed", pick(a, [2]uint16{70, 30}, [2]uint16{100, 45}))
			must(s.Focus(id, "B", true)) // B's user looks at it
			step("B focused", pick(b, [2]uint16{70, 30}, [2]uint16{100, 45}))
			must(s.Show("B", "")) // B shows no run now: A's size alone counts
			step("B shows nothing", a)
			must(s.Show("B", id))
			step("B shows it again", pick(b, [2]uint16{70, 30}, [2]uint16{100, 45}))
			s.Unfocus("B") // B went away
			step("B gone", a)
			must(s.Show("A", ""))
			must(s.ResizeFor(id, "A", 90, 20)) // nobody shows it: every viewer's size counts
			step("shown by none", [2]uint16{90, 20})
			if err := s.ResizeFor(id, "A", 0, 5); err == nil {
				t.Error("a size of 0 columns was taken")
			}
			s.Cancel(id)
			waitEnd(t, s, id)
			if err := s.ResizeFor(id, "A", 80, 24); err == nil {
				t.Error("an ended run was resized")
			}
			s.win.mu.Lock()
			left := len(s.win.sizes)
			s.win.mu.Unlock()
			if left != 0 {
				t.Errorf("an ended run's sizes are kept: %d runs", left)
			}
		})
	}
}

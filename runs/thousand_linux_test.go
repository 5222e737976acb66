package runs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"corral/demo/testkit/eventually"
)

// thousand is how many runs the scale tests hold at once.
const thousand = 1000

// maxThreads bounds the threads of a process holding a thousand idle runs: what Go
// keeps anyway (GOMAXPROCS, the sysmon, the netpoller, a few blocked in a syscall for
// a moment), not one per run.
const maxThreads = 64

// TestThousandExits: a thousand runs live at once on a few threads, each child's exit
// is learned and reaped with its own status and reason, on both backends. Each child
// blocks reading its input (nothing of Corral's waits on it but the one epoll the
// Go netpoller keeps), then exits with a code of its own, or is killed by a signal
// nobody at Corral sent.
func TestThousandExits(t *testing.T) {
	if testing.Short() {
		t.Skip("a thousand processes")
	}
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t)
		// The threads earlier tests of this binary left idle stay (Go keeps them, and
		// reuses them): counted as a base, so the bound is on what a thousand runs add.
		limit := max(maxThreads, threads(t)+maxThreads/4)
		ids := make([]string, thousand)
		script := `read x; case $x in k) kill -KILL $$;; *) exit $x;; esac`
		for i := range ids {
			ids[i] = spawn(t, s, Spec{Argv: []string{"sh", "-c", script}, PTY: pty, Cols: 80, Rows: 24})
		}
		pids := make([]int, thousand)
		for i, id := range ids {
			pids[i] = waitState(t, s, id, Running).PID
		}
		if n := threads(t); n > limit {
			t.Errorf("%d threads with %d runs live; want at most %d", n, thousand, limit)
		}
		for i, id := range ids {
			if err := s.Write(id, []byte(exitInput(i)+"\n")); err != nil {
				t.Fatalf("input to run %d: %v", i, err)
			}
		}
		infos := make([]Info, thousand)
		errs := make([]error, thousand)
		var wg sync.WaitGroup
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		for i, id := range ids {
			wg.Go(func() { infos[i], errs[i] = s.Wait(ctx, id) })
		}
		wg.Wait()
		bad := 0
		for i, info := range infos {
			if errs[i] != nil {
				var dump bytes.Buffer
				pprof.Lookup("goroutine").WriteTo(&dump, 1)
				t.Logf("goroutines:\n%s", dump.Bytes())
				t.Fatalf("run %d: wait: %v (state %s)", i, errs[i], info.State)
			}
			if msg := exitMismatch(i, info); msg != "" {
				if bad++; bad <= 10 {
					t.Errorf("run %d (pid %d): %s", i, pids[i], msg)
				}
			}
			// Reaped: no longer a child of ours, not even a zombie.
			var ws syscall.WaitStatus
			if got, err := syscall.Wait4(pids[i], &ws, syscall.WNOHANG, nil); err != syscall.ECHILD {
				t.Errorf("run %d: pid %d not reaped (wait4: %d, %v)", i, pids[i], got, err)
			}
		}
		if bad > 10 {
			t.Errorf("… and %d more runs ended wrongly", bad-10)
		}
	})
}

// exitInput is what run i is told: "k" to be killed by SIGKILL (every tenth), else
// the code it exits with.
func exitInput(i int) string {
	if i%10 == 9 {
		return "k"
	}
	return strconv.Itoa(i % 200)
}

// exitMismatch says how run i's end differs from what exitInput asked of it.
func exitMismatch(i int, info Info) string {
	if i%10 == 9 {
		if info.Reason != Signal || info.Signal != int(unix.SIGKILL) || info.ExitCode != nil {
			return fmt.Sprintf("ended %s, code %v, signal %d; want signal 9", info.Reason, codeOf(info), info.Signal)
		}
		return ""
	}
	want := i % 200
	if info.Reason != Exit || info.ExitCode == nil || *info.ExitCode != want || info.Signal != 0 {
		return fmt.Sprintf("ended %s, code %v, signal %d; want exit %d", info.Reason, codeOf(info), info.Signal, want)
	}
	return ""
}

func codeOf(info Info) string {
	if info.ExitCode == nil {
		return "none"
	}
	return strconv.Itoa(*info.ExitCode)
}

// threads is this process's thread count (/proc/self/status).
func threads(t testing.TB) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("Threads:")); ok {
			n, _ := strconv.Atoi(string(bytes.TrimSpace(v)))
			return n
		}
	}
	t.Fatal("no Threads in /proc/self/status")
	return 0
}

// TestScreenFirstPrintsLate: a PTY run that prints nothing for a while (its screen
// blank, never emulated) and is resized meanwhile shows, once it first prints, what a
// terminal of the new size shows: the size it was given, its text at the tab stops of
// that width, the cursor below it.
func TestScreenFirstPrintsLate(t *testing.T) {
	s := newSup(t, WithScreens())
	id := spawn(t, s, Spec{Argv: []string{"sh", "-c", `read x; stty size; printf 'late\t%s\n' "$x"; read y`},
		PTY: true, Cols: 80, Rows: 24})
	waitState(t, s, id, Running)
	scr, err := s.Screen(id)
	if err != nil {
		t.Fatal(err)
	}
	if txt := strings.TrimSpace(scr.Text()); txt != "" {
		t.Fatalf("screen before the first print: %q; want blank", txt)
	}
	if err := s.Resize(id, 100, 30); err != nil {
		t.Fatal(err)
	}
	if c, r := scr.Size(); c != 100 || r != 30 {
		t.Fatalf("blank screen resized to %d×%d; want 100×30", c, r)
	}
	if err := s.Write(id, []byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	want := "hello\n30 100\nlate    hello" // the terminal's echo, then the run's print
	if _, ok := eventually.Within(20*time.Second, func() (string, bool) {
		return "", strings.HasPrefix(scr.Text(), want)
	}); !ok {
		t.Fatalf("screen after the late print:\n%s\nwant it to start with %q", scr.Text(), want)
	}
	if st := scr.State(); st.CursorX != 0 || st.CursorY != 3 || !st.CursorVisible {
		t.Errorf("cursor at %d,%d (visible %v); want 0,3, visible", st.CursorX, st.CursorY, st.CursorVisible)
	}
	if err := s.Write(id, []byte("\n")); err != nil {
		t.Fatal(err)
	}
	if info := waitEnd(t, s, id); info.Reason != Exit || codeOf(info) != "0" {
		t.Errorf("ended %s, code %s; want exit 0", info.Reason, codeOf(info))
	}
}

// TestIdleRunCost: an idle run costs the goroutines that wait for something that can
// happen (its exit, its output) and a few KB of heap: no thread, no goroutine for
// input nobody sends, no read or recording buffer, no emulator cells for a screen
// nothing was written to.
func TestIdleRunCost(t *testing.T) {
	const n, maxHeap = 100, 24 << 10
	kinds(t, func(t *testing.T, pty bool) {
		s := newSup(t, WithScreens())
		// Exit watchers, one reader per output stream: a PTY has one, pipes two.
		goroutines := 2
		if !pty {
			goroutines = 3
		}
		g0, h0 := goroutinesAndHeap()
		ids := make([]string, n)
		for i := range ids {
			ids[i] = spawn(t, s, Spec{Argv: []string{"sh", "-c", "read x"}, PTY: pty, Cols: 120, Rows: 40})
		}
		for _, id := range ids {
			waitState(t, s, id, Running)
		}
		// The recordings' first flush gives their buffers back: wait for it rather
		// than count buffers that are about to go.
		var g1, h1 int
		_, ok := eventually.Within(10*time.Second, func() (struct{}, bool) {
			g1, h1 = goroutinesAndHeap()
			return struct{}{}, g1-g0 <= n*goroutines && (h1-h0)/n <= maxHeap
		})
		if !ok {
			t.Errorf("per idle run: %.2f goroutines, %d bytes of heap; want at most %d and %d",
				float64(g1-g0)/n, (h1-h0)/n, goroutines, maxHeap)
		}
		t.Logf("per idle run: %.2f goroutines, %d bytes of heap", float64(g1-g0)/n, (h1-h0)/n)
		for _, id := range ids {
			if err := s.Write(id, []byte("\n")); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range ids {
			waitEnd(t, s, id)
		}
	})
}

// goroutinesAndHeap counts the goroutines and the live heap after a collection.
func goroutinesAndHeap() (goroutines, heap int) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return runtime.NumGoroutine(), int(m.HeapAlloc)
}

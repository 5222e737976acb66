package keeper

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// The test binary is also the keeper and its server: KEEPER_TEST=DIR makes it a
// keeper of DIR whose server is this binary again with the argument fakeServer.
const fakeServer = "fake-server"

func TestMain(m *testing.M) {
	dir := os.Getenv("KEEPER_TEST")
	switch {
	case dir != "" && len(os.Args) > 1 && os.Args[1] == fakeServer:
		os.Exit(serveFake(dir))
	case dir != "":
		err := Serve(Options{StateDir: dir, Exe: os.Args[0], Args: []string{fakeServer}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	testkit.Main(m)
}

// serveFake is a server in miniature. The first starts a pipe run that prints "one",
// waits for a line and exits 3; it hands the run to the keeper and never reads it.
// The next takes the run back, writes "two", reads to the end and reports what it
// got: the output the keeper kept, the rest, and the exit status.
func serveFake(dir string) int {
	k, err := FromEnv()
	if err != nil || k == nil {
		return 2
	}
	if os.Getenv(EnvFD) != "" {
		return 3 // FromEnv must take the variable away from what this process starts
	}
	runs, err := k.Recover()
	if err != nil {
		return 4
	}
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("server.%d", len(runs))), []byte(strconv.Itoa(os.Getpid())), 0o600)
	if len(runs) == 0 {
		inR, inW, _ := os.Pipe()
		outR, outW, _ := os.Pipe()
		errR, errW, _ := os.Pipe()
		cmd := exec.Command("/bin/sh", "-c", `echo one; read x; echo "got $x"; exit 3`)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return 5
		}
		inR.Close()
		outW.Close()
		errW.Close()
		if err := k.Keep("r1", cmd.Process.Pid, false, inW, outR, errR); err != nil {
			return 6
		}
		os.WriteFile(filepath.Join(dir, "started"), nil, 0o600)
		if next := os.Getenv("KEEPER_TEST_HANDOVER"); next != "" {
			k.Handover(next) // an upgrade: this server ends, the run is the next one's
			return 0
		}
		select {} // until killed
	}
	r := runs[0]
	kept := string(r.Output[0])
	r.Files[0].Write([]byte("two\n"))
	rest, _ := io.ReadAll(r.Files[1])
	<-r.Exit.Done()
	ws, known := r.Exit.Status()
	res := fmt.Sprintf("%s|%q|%q|%d|%v", r.ID, kept, rest, ws.ExitStatus(), known)
	os.WriteFile(filepath.Join(dir, "result"), []byte(res), 0o600)
	k.Drop(r.ID)
	return 0
}

// testKeeper is this test binary run as a keeper of a temporary state dir.
type testKeeper struct {
	dir     string
	cmd     *exec.Cmd
	log     string        // its stderr, a file: Wait never waits on a pipe a child still holds
	done    chan struct{} // closed once it has exited
	waitErr error
}

func startKeeper(t *testing.T, env ...string) *testKeeper {
	t.Helper()
	k := &testKeeper{dir: t.TempDir(), done: make(chan struct{})}
	k.cmd = exec.Command(os.Args[0])
	k.cmd.Env = append(append(os.Environ(), "KEEPER_TEST="+k.dir), env...)
	logf, err := os.Create(filepath.Join(t.TempDir(), "keeper.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	k.log, k.cmd.Stderr = logf.Name(), logf
	if err := k.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { k.waitErr = k.cmd.Wait(); close(k.done) }()
	t.Cleanup(func() {
		select {
		case <-k.done:
		default:
			k.cmd.Process.Kill()
			<-k.done
		}
	})
	return k
}

func (k *testKeeper) stderr() string { b, _ := os.ReadFile(k.log); return string(b) }

// result waits for the report of the server that took the run back, and checks it.
func (k *testKeeper) result(t *testing.T, what string) {
	t.Helper()
	var res string
	eventually.Value(t, 30*time.Second, what, func() (string, bool) {
		b, err := os.ReadFile(filepath.Join(k.dir, "result"))
		res = string(b)
		return res, err == nil
	})
	if want := `r1|"one\n"|"got two\n"|3|true`; res != want {
		t.Fatalf("%s: got %s, want %s", what, res, want)
	}
}

// ended waits for the keeper to end, as it must once it keeps nothing.
func (k *testKeeper) ended(t *testing.T) {
	t.Helper()
	select {
	case <-k.done:
		if k.waitErr != nil {
			t.Fatalf("keeper: %v: %s", k.waitErr, k.stderr())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the keeper did not end once it kept nothing: %s", k.stderr())
	}
}

// A server SIGKILLed while its run waits: the keeper reads what the run printed, the
// run becomes its child, a new server is started and takes the run back through the
// same pipes — the output kept, input reaching it, its exit status from the keeper —
// and once the run is dropped and the server ends, the keeper ends too.
func TestKeeperCarriesARunAcrossServers(t *testing.T) {
	k := startKeeper(t)
	eventually.True(t, 10*time.Second, "the first server to start its run", func() bool {
		_, err := os.Stat(filepath.Join(k.dir, "started"))
		return err == nil
	})
	b, _ := os.ReadFile(filepath.Join(k.dir, "server.0"))
	first, _ := strconv.Atoi(string(b))
	if first <= 1 {
		t.Fatalf("first server pid %q", b)
	}
	syscall.Kill(first, syscall.SIGKILL)
	k.result(t, "the next server's report")
	k.ended(t)
	if pid, _ := os.ReadFile(filepath.Join(k.dir, "keeper.lock")); strings.TrimSpace(string(pid)) != strconv.Itoa(k.cmd.Process.Pid) {
		t.Errorf("keeper.lock says %q, the keeper is %d", pid, k.cmd.Process.Pid)
	}
}

// An upgrade to a binary that does not stay up: after a few servers of it die young
// the keeper starts its own binary again, and that server takes the run back.
func TestKeeperFallsBackFromABrokenUpgrade(t *testing.T) {
	k := startKeeper(t, "KEEPER_TEST_HANDOVER=/bin/false")
	k.result(t, "a server of the keeper's own binary to take the run back")
	k.ended(t)
}

// A second keeper of the same state dir ends at once with ErrRunning.
func TestOneKeeperPerStateDir(t *testing.T) {
	dir := t.TempDir()
	l, err := lockKeeper(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := Serve(Options{StateDir: dir, Exe: "/bin/false"}); err != ErrRunning {
		t.Fatalf("second keeper: %v, want ErrRunning", err)
	}
}

// Messages keep their boundaries and carry descriptors: what is written to the
// descriptor received arrives at the pipe sent.
func TestWireCarriesDescriptors(t *testing.T) {
	a, bf, err := pair()
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	b, err := newConn(bf)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	r, w, _ := os.Pipe()
	defer r.Close()
	data := bytes.Repeat([]byte("x"), chunk)
	if err := a.sendFiles(msg{Op: opKeep, ID: "r1", PID: 42}, w); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := a.send(msg{Op: opData, ID: "r1", Data: data}); err != nil {
		t.Fatal(err)
	}
	m, fds, err := b.recv()
	if err != nil || m.Op != opKeep || m.ID != "r1" || m.PID != 42 || len(fds) != 1 {
		t.Fatalf("keep: %+v %d descriptors, %v", m, len(fds), err)
	}
	got := os.NewFile(uintptr(fds[0]), "got")
	got.Write([]byte("through"))
	got.Close()
	if got, _ := io.ReadAll(r); string(got) != "through" {
		t.Fatalf("read %q through the descriptor sent", got)
	}
	m, fds, err = b.recv()
	if err != nil || m.Op != opData || !bytes.Equal(m.Data, data) || len(fds) != 0 {
		t.Fatalf("data: op %q, %d bytes, %d descriptors, %v", m.Op, len(m.Data), len(fds), err)
	}
	a.close()
	if _, _, err := b.recv(); err == nil {
		t.Fatal("recv after the peer closed: no error")
	}
}

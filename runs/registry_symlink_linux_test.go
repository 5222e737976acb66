package runs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A directory of the state dir that is a symbolic link is refused at
// once, with one error naming it, and nothing is written where it points. Before:
// logs/, metrics/ and instances/ were followed (the run's logs landed elsewhere), and
// a linked runs/ failed only at the first record, after 11 s of retries.
func TestSymlinkedStateDirsRefused(t *testing.T) {
	for _, sub := range []string{"runs", "instances", "metrics", "logs"} {
		t.Run(sub, func(t *testing.T) {
			dir, elsewhere := t.TempDir(), t.TempDir()
			if err := os.Symlink(elsewhere, filepath.Join(dir, sub)); err != nil {
				t.Fatal(err)
			}
			var err error
			within(t, 2*time.Second, "Open", func() {
				var reg *Registry
				var s *Supervisor
				s, reg, err = Open(testDefaults(), dir, func(string) {})
				if err == nil {
					s.Shutdown(t.Context())
					reg.Close()
				}
			})
			link := filepath.Join(dir, sub)
			if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("Open with %s a symlink: %v; want an error naming %s as a symbolic link", sub, err, link)
			}
			if left, _ := os.ReadDir(elsewhere); len(left) > 0 {
				t.Errorf("files written through the link: %v", left)
			}
		})
	}
}

// A lease renewal makes no new file: the lease and its spare trade places (one
// rename), so the file renewed two renewals ago is written again; the lease read back
// is always the last one, whole, and Close leaves neither file behind. A new inode per
// renewal (a temp file renamed over the lease) was a fifth of an idle server's CPU.
func TestLeaseRenewalReusesItsFiles(t *testing.T) {
	dir := t.TempDir()
	reg, err := OpenRegistry(dir, testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	inode := func(name string) uint64 {
		st, err := os.Stat(filepath.Join(dir, "instances", name))
		if err != nil {
			t.Fatal(err)
		}
		return st.Sys().(*syscall.Stat_t).Ino
	}
	lease := reg.Instance() + ".lease"
	for i := range 6 {
		spare := uint64(0)
		if i > 1 {
			spare = inode(lease + leaseSpare)
		}
		until, err := reg.renewInstance()
		if err != nil {
			t.Fatal(err)
		}
		if got := reg.instanceLease(reg.Instance()); !got.Equal(until) {
			t.Fatalf("renewal %d: the lease reads %v, want %v", i, got, until)
		}
		if spare != 0 && inode(lease) != spare {
			t.Errorf("renewal %d wrote a new file (inode %d), not the spare (%d)", i, inode(lease), spare)
		}
	}
	reg.Close()
	for _, n := range []string{lease, lease + leaseSpare} {
		if _, err := os.Stat(filepath.Join(dir, "instances", n)); err == nil {
			t.Errorf("%s is left after Close", n)
		}
	}
}

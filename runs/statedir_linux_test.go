package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// issue 23.3: a directory of the state dir that is a symbolic link is refused at
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

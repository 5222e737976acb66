package reaper

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A unix socket connection and a loopback TCP one are each seen as two inodes, each
// the other's peer, both held by this process.
func TestSocketPeers(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ul, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ul.Close()
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	for _, c := range []struct {
		ln          net.Listener
		network, at string
	}{{ul, "unix", sock}, {tl, "tcp", tl.Addr().String()}} {
		before := SocketInodes(os.Getpid())
		client, err := net.Dial(c.network, c.at)
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		server, err := c.ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		defer server.Close()
		var fresh []uint64
		for _, ino := range SocketInodes(os.Getpid()) {
			if !slices.Contains(before, ino) {
				fresh = append(fresh, ino)
			}
		}
		if len(fresh) != 2 {
			t.Fatalf("%s: new socket inodes %v, want the two ends", c.network, fresh)
		}
		peers, err := SocketPeers()
		if err != nil {
			t.Fatal(err)
		}
		if peers[fresh[0]] != fresh[1] || peers[fresh[1]] != fresh[0] {
			t.Errorf("%s: peers of %v: %d and %d", c.network, fresh, peers[fresh[0]], peers[fresh[1]])
		}
	}
}

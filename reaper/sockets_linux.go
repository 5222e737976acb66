package reaper

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Who talks to whom, for daemons runs share: codex starts one
// `codex app-server` per CODEX_HOME, and every codex of that home connects to it over
// a unix socket. The run that started it must not end it while another run is
// connected: these say which socket is connected to which, by inode.

// SocketInodes lists the inodes of the sockets pid holds (its fds that link to
// "socket:[N]").
func SocketInodes(pid int) []uint64 {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []uint64
	for _, e := range ents {
		l, err := os.Readlink(dir + "/" + e.Name())
		if err != nil {
			continue
		}
		if n, ok := strings.CutPrefix(l, "socket:["); ok {
			if ino, err := strconv.ParseUint(strings.TrimSuffix(n, "]"), 10, 64); err == nil {
				out = append(out, ino)
			}
		}
	}
	return out
}

// The unix socket diagnostics of linux/unix_diag.h (x/sys has no types for them).
const (
	udiagShowPeer = 0x4
	unixDiagPeer  = 2
	unixDiagReq   = 24 // sizeof(struct unix_diag_req)
	unixDiagMsg   = 16 // sizeof(struct unix_diag_msg)
)

// SocketPeers maps the inode of every connected local socket to its peer's: unix
// sockets from the kernel's socket diagnostics (NETLINK_SOCK_DIAG), TCP connections
// over loopback from /proc/net/tcp and tcp6 (both ends here).
func SocketPeers() (map[uint64]uint64, error) {
	peers, err := unixPeers()
	if err != nil {
		return nil, err
	}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		tcpPeers(f, peers)
	}
	return peers, nil
}

// unixPeers dumps every unix socket with its peer.
func unixPeers() (map[uint64]uint64, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("sock_diag: %w", err)
	}
	defer unix.Close(fd)
	req := make([]byte, unix.NLMSG_HDRLEN+unixDiagReq)
	binary.NativeEndian.PutUint32(req[0:], uint32(len(req)))
	binary.NativeEndian.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
	binary.NativeEndian.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
	body := req[unix.NLMSG_HDRLEN:]
	body[0] = unix.AF_UNIX
	binary.NativeEndian.PutUint32(body[4:], 0xffffffff) // every state
	binary.NativeEndian.PutUint32(body[12:], udiagShowPeer)
	if err := unix.Sendto(fd, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return nil, fmt.Errorf("sock_diag: %w", err)
	}
	peers := map[uint64]uint64{}
	buf := make([]byte, 64<<10)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return nil, fmt.Errorf("sock_diag: %w", err)
		}
		for b := buf[:n]; len(b) >= unix.NLMSG_HDRLEN; {
			l := int(binary.NativeEndian.Uint32(b[0:]))
			if l < unix.NLMSG_HDRLEN || l > len(b) {
				return nil, errors.New("sock_diag: a malformed message")
			}
			switch binary.NativeEndian.Uint16(b[4:]) {
			case unix.NLMSG_DONE:
				return peers, nil
			case unix.NLMSG_ERROR:
				return nil, errors.New("sock_diag: the kernel refused the dump")
			}
			addUnixPeer(b[unix.NLMSG_HDRLEN:l], peers)
			b = b[min((l+unix.NLMSG_ALIGNTO-1)&^(unix.NLMSG_ALIGNTO-1), len(b)):]
		}
	}
}

// addUnixPeer reads one unix_diag_msg and its attributes.
func addUnixPeer(d []byte, peers map[uint64]uint64) {
	if len(d) < unixDiagMsg {
		return
	}
	ino := uint64(binary.NativeEndian.Uint32(d[4:]))
	for a := d[unixDiagMsg:]; len(a) >= 4; {
		l := int(binary.NativeEndian.Uint16(a[0:]))
		if l < 4 || l > len(a) {
			return
		}
		if binary.NativeEndian.Uint16(a[2:]) == unixDiagPeer && l >= 8 {
			if peer := uint64(binary.NativeEndian.Uint32(a[4:])); peer != 0 {
				peers[ino] = peer
			}
		}
		a = a[(l+3)&^3:]
	}
}

// tcpPeers adds the TCP connections of f whose two ends are both on this host: an end
// with local L and remote R is the peer of the one with local R and remote L.
func tcpPeers(path string, peers map[uint64]uint64) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	type conn struct{ local, remote string }
	byConn := map[conn]uint64{}
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		fl := strings.Fields(sc.Text())
		if len(fl) < 10 || fl[3] != "01" { // established only
			continue
		}
		if ino, err := strconv.ParseUint(fl[9], 10, 64); err == nil && ino != 0 {
			byConn[conn{fl[1], fl[2]}] = ino
		}
	}
	for c, ino := range byConn {
		if peer, ok := byConn[conn{c.remote, c.local}]; ok {
			peers[ino] = peer
		}
	}
}

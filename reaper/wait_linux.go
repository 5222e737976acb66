package reaper

import (
	"time"

	"golang.org/x/sys/unix"
)

// waiter sleeps until tracked processes exit. A pidfd becomes readable once its
// process has exited, zombie or reaped (kernel pidfd_poll), so one ppoll(2) over all
// of them wakes at the next exit instead of re-reading stat files on a timer. That
// matters at cancel time: a hundred processes dying on two cores need the CPU that
// polling /proc every millisecond would take from them.
type waiter struct {
	fds      []unix.PollFd
	refs     []waitRef
	interval time.Duration // backoff for members without a pidfd
}

// waitRef says which tracked process fds[i] belongs to.
type waitRef struct {
	pid   int
	extra bool
}

func newWaiter() waiter { return waiter{interval: firstPoll} }

// wait blocks up to d for tracked processes to exit and drops those that did. Members
// without a pidfd (pidfd_open failed: kernel < 5.3 or no free fd) are re-read from
// /proc after a wait that backs off from firstPoll to Target.Poll.
func (e *escalation) wait(d time.Duration) {
	w := &e.w
	w.fds, w.refs = w.fds[:0], w.refs[:0]
	unwatched := false
	for pid, m := range e.live {
		if m.fd < 0 {
			unwatched = true
			continue
		}
		w.fds = append(w.fds, unix.PollFd{Fd: int32(m.fd), Events: unix.POLLIN})
		w.refs = append(w.refs, waitRef{pid: pid})
	}
	for pid, x := range e.extra {
		w.fds = append(w.fds, unix.PollFd{Fd: int32(x.fd), Events: unix.POLLIN})
		w.refs = append(w.refs, waitRef{pid: pid, extra: true})
	}
	if unwatched {
		d = min(d, w.interval)
		w.interval = min(2*w.interval, e.t.Poll)
	}
	ts := unix.NsecToTimespec(int64(d))
	if _, err := unix.Ppoll(w.fds, &ts, nil); err != nil {
		return // EINTR: the caller loops
	}
	for i, p := range w.fds {
		switch {
		case p.Revents == 0:
		case w.refs[i].extra:
			e.dropExtra(w.refs[i].pid)
		default:
			e.dropMember(w.refs[i].pid)
		}
	}
	if unwatched {
		e.pollUnwatched()
	}
}

// pollUnwatched re-reads the stat of members without a pidfd and drops those that are
// gone, dead or replaced.
func (e *escalation) pollUnwatched() {
	var p Proc
	for pid, m := range e.live {
		if m.fd >= 0 {
			continue
		}
		_, err := e.s.read(pid, &p)
		if err == ErrGone || (err == nil && (dead(p.State) || p.StartTime != m.start)) {
			delete(e.live, pid)
		}
	}
}

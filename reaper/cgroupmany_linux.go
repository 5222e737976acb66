package reaper

import (
	"context"
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// TerminateMany ends many runs at once, as a shutdown does: one pass of the
// escalation each (Terminate, with its retries), where the runs' cgroups are ended
// together. Every cgroup's members get the stop signal before any grace is waited
// for; one wait watches every cgroup's cgroup.events on one inotify instance, each
// cgroup until it is empty or its own grace (ctxs[i]) ends; what is left then is
// killed (cgroup.kill) and waited for the same way. Ended one by one, a thousand runs
// each took an inotify instance of their own (128 per user: the rest polled), and
// their thousand goroutines read, signalled and waited over one another for seconds.
//
// A target whose cgroup is gone, or with anything outside its cgroup (escapees, a root
// that left it, a claim), is ended by Terminate, beside the rest at the same time;
// every session target too, all of them sharing their scans of /proc (one scan for
// all that ask at once, not one each), and waiting for the next scan rather than on
// their processes' pidfds (no thread each). reps[i] is targets[i]'s.
func TerminateMany(ctxs []context.Context, targets []Target) []Report {
	reps := make([]Report, len(targets))
	var wg sync.WaitGroup
	var batch []*cgroupEscalation
	var at []int
	shared := newSharedScan() // the session targets' scans of /proc
	for i, t := range targets {
		ctx := ctxs[i]
		if ctx == nil {
			ctx = context.Background()
		}
		if t.Cgroup == nil {
			wg.Go(func() { reps[i] = terminateShared(ctx, t, shared) })
			continue
		}
		// One with anything known outside its cgroup is ended alone. One whose cgroup
		// is gone, or whose root is not a member, is found so by the first read of its
		// members (signalOrLeave), not by a read of its own before any signal.
		if knownOutside(t) {
			wg.Go(func() { reps[i] = Terminate(ctx, t) })
			continue
		}
		if t.Sweep <= 0 {
			t.Sweep = defaultSweep
		}
		t.OnStep = onceEach(t.OnStep)
		c := newCgroupEscalation(ctx, t)
		c.lateArgv = true // the command lines of what outlives the grace only
		batch = append(batch, c)
		at = append(at, i)
	}
	// Every cgroup signalled, then one grace for all, then one kill and one sweep for
	// those left.
	wait := make([]*cgroupEscalation, 0, len(batch))
	signalled, leave := make([]bool, len(batch)), make([]bool, len(batch))
	each(len(batch), func(k int) { signalled[k], leave[k] = batch[k].signalOrLeave() })
	kept, keptAt := batch[:0], at[:0]
	for k, c := range batch {
		if leave[k] { // ended alone, beside the rest
			i := at[k]
			ctx, t := c.ctx, targets[i]
			wg.Go(func() { reps[i] = Terminate(ctx, t) })
			continue
		}
		kept, keptAt = append(kept, c), append(keptAt, at[k])
		if signalled[k] {
			wait = append(wait, c)
		}
	}
	batch, at = kept, keptAt
	empty := awaitEmptyAll(wait, func(c *cgroupEscalation) (context.Context, time.Time) {
		return c.ctx, time.Now().Add(c.t.Grace) // the grace from now: every signal has gone
	})
	// Each cgroup's kill on the workers too: the command lines read before it (of what
	// outlived the grace, the likeliest to block a read) hold up no other cgroup's.
	again := make([]bool, len(wait))
	each(len(wait), func(k int) { again[k] = wait[k].graceOver(empty[k]) })
	var swept []*cgroupEscalation
	for k, c := range wait {
		if again[k] {
			swept = append(swept, c)
		}
	}
	empty = awaitEmptyAll(swept, func(c *cgroupEscalation) (context.Context, time.Time) {
		return context.Background(), time.Now().Add(c.t.Sweep)
	})
	for k, c := range swept {
		c.empty = empty[k]
	}
	each(len(batch), func(k int) {
		c := batch[k]
		moved := c.movedOut()
		c.reapExited()
		c.release()
		rep := c.report()
		c.endMoved(&rep, moved)
		reps[at[k]] = rep
	})
	for k, c := range batch {
		i := at[k]
		if t := c.t; !reps[i].VerifiedEmpty && reps[i].Err == nil && t.Retries > 0 {
			// The rest of Terminate's retries, on its own goroutine: each pass with no
			// grace and twice the sweep of the one before.
			wg.Go(func() {
				t.Grace, t.Sweep, t.Retries = retryGrace, 2*t.Sweep, t.Retries-1
				reps[i].merge(Terminate(c.ctx, t))
			})
		}
	}
	wg.Wait()
	return reps
}

// each calls fn(k) for every k below n, on manyWorkers goroutines: the reads and
// signals of a thousand cgroups are system calls, a few in flight at once keep every
// core busy without a thread for each.
func each(n int, fn func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, manyWorkers) {
		wg.Go(func() {
			for k := int(next.Add(1)) - 1; k < n; k = int(next.Add(1)) - 1 {
				fn(k)
			}
		})
	}
	wg.Wait()
}

const manyWorkers = 4

// awaitEmptyAll waits until each cgroup of cs is empty, its context is done or its
// deadline passes (until returns both, asked once each as the wait begins), watching
// every cgroup.events on one inotify instance; a cgroup that cannot be watched (no
// instance or watch left) is read on a short backoff instead, as await does. It
// reports, for each, whether it is empty.
func awaitEmptyAll(cs []*cgroupEscalation, until func(*cgroupEscalation) (context.Context, time.Time)) []bool {
	empty := make([]bool, len(cs))
	if len(cs) == 0 {
		return empty
	}
	type waiter struct {
		k        int
		ctx      context.Context
		deadline time.Time
		watched  bool
	}
	pending := make(map[int]*waiter, len(cs))
	byWD := map[int32]*waiter{}
	in, err := inotifyInit()
	if err != nil {
		in = -1
	} else {
		defer func() { go unix.Close(in) }() // off the caller's path: see await
	}
	for k, c := range cs {
		ctx, dl := until(c)
		// One empty already (most, once every stop signal has gone) needs no watch.
		if p, _, err := c.cg.events(); err != nil || !p { // unreadable: as await, the wait ends not empty
			empty[k] = err == nil
			continue
		}
		w := &waiter{k: k, ctx: ctx, deadline: dl}
		if in >= 0 {
			if wd, err := unix.InotifyAddWatch(in, c.cg.file("cgroup.events"), unix.IN_MODIFY); err == nil {
				w.watched = true
				byWD[int32(wd)] = w
			}
		}
		pending[k] = w
	}
	// Each cgroup still populated read again once its watch is set (no change is
	// missed in between), then only when its watch fires, or on every round while it
	// has none.
	check := make([]*waiter, 0, len(pending))
	for _, w := range pending {
		check = append(check, w)
	}
	backoff := pollFirst
	buf := make([]byte, 64<<10)
	for {
		for _, w := range check {
			if _, ok := pending[w.k]; !ok {
				continue
			}
			p, _, err := cs[w.k].cg.events()
			if err != nil || !p { // unreadable: as await, the wait ends not empty
				empty[w.k] = err == nil
				delete(pending, w.k)
			}
		}
		if len(pending) == 0 {
			return empty
		}
		// Those whose grace ended (or was cut) are done: one last read says whether
		// they emptied as it did.
		now := time.Now()
		next := now.Add(awaitSlice)
		polled := false
		for k, w := range pending {
			if w.ctx.Err() != nil || !now.Before(w.deadline) {
				p, _, err := cs[k].cg.events()
				empty[k] = err == nil && !p
				delete(pending, k)
				continue
			}
			next = minTime(next, w.deadline)
			polled = polled || !w.watched
		}
		if len(pending) == 0 {
			return empty
		}
		d := max(time.Until(next), time.Millisecond)
		if polled {
			d = min(d, backoff)
			backoff = min(2*backoff, awaitSlice)
		}
		check = check[:0]
		if in >= 0 && len(byWD) > 0 {
			fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}
			n, err := unix.Poll(fds, int((d+time.Millisecond-1)/time.Millisecond))
			if err != nil && !errors.Is(err, unix.EINTR) {
				// The instance failed: every cgroup is read on the backoff from now on.
				for _, w := range pending {
					w.watched = false
				}
				byWD = map[int32]*waiter{}
			}
			if n > 0 {
				check = firedWatches(in, buf, byWD, check)
			}
		} else {
			time.Sleep(d)
		}
		for _, w := range pending {
			if !w.watched {
				check = append(check, w)
			}
		}
	}
}

// firedWatches reads the inotify instance in and appends the waiter of each watch
// that fired to check.
func firedWatches[W any](in int, buf []byte, byWD map[int32]*W, check []*W) []*W {
	for {
		n, err := unix.Read(in, buf)
		if err == unix.EINTR {
			continue
		}
		if n <= 0 {
			return check
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			wd := int32(binary.NativeEndian.Uint32(buf[off:]))
			size := int(binary.NativeEndian.Uint32(buf[off+12:]))
			if w, ok := byWD[wd]; ok {
				check = append(check, w)
			}
			off += unix.SizeofInotifyEvent + size
		}
		if n < len(buf) {
			return check
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

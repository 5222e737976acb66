package client

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// The two links keep their pace: a Remote that lost this machine's server tries 50 ms
// after the loss, then twice as long each time up to 2 s; a Fleet tries a host at
// once, then after 0.5 s, twice as long each time up to 15 s.
func TestBackoffWaits(t *testing.T) {
	ms := func(ds ...int) []time.Duration {
		out := make([]time.Duration, len(ds))
		for i, d := range ds {
			out[i] = time.Duration(d) * time.Millisecond
		}
		return out
	}
	for _, c := range []struct {
		name string
		b    backoff
		want []time.Duration
	}{
		{"relink", relinkBackoff, ms(50, 100, 200, 400, 800, 1600, 2000, 2000)},
		{"fleet", fleetBackoff, ms(0, 500, 1000, 2000, 4000, 8000, 15000, 15000)},
	} {
		var got []time.Duration
		for try := 1; try <= len(c.want); try++ {
			got = append(got, c.b.wait(try))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: waits %v, want %v", c.name, got, c.want)
		}
	}
	if d := relinkBackoff.wait(1000); d != 2*time.Second {
		t.Errorf("relink's 1000th wait %v, want its bound, 2s", d)
	}
}

// retry waits before each attempt as the backoff says, tells each failure with the
// wait before the next, and ends at the first attempt that works; it gives up when
// told to, or when done is closed during a wait.
func TestBackoffRetry(t *testing.T) {
	var waited []time.Duration
	b := backoff{first: time.Second, max: 3 * time.Second, after: func(d time.Duration) <-chan time.Time {
		waited = append(waited, d)
		c := make(chan time.Time, 1)
		c <- time.Time{}
		return c
	}}
	var tries, told []string
	ok := b.retry(make(chan struct{}), func(try int) error {
		tries = append(tries, fmt.Sprint(try))
		if try < 4 {
			return errors.New("refused")
		}
		return nil
	}, func(try int, err error, next time.Duration) bool {
		told = append(told, fmt.Sprintf("%d %v next %v", try, err, next))
		return true
	})
	if !ok {
		t.Fatal("retry gave up although the 4th attempt worked")
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}; !reflect.DeepEqual(waited, want) {
		t.Errorf("waits %v, want %v", waited, want)
	}
	if want := []string{"1", "2", "3", "4"}; !reflect.DeepEqual(tries, want) {
		t.Errorf("attempts %v, want %v", tries, want)
	}
	if want := []string{"1 refused next 2s", "2 refused next 3s", "3 refused next 3s"}; !reflect.DeepEqual(told, want) {
		t.Errorf("failures told %q, want %q", told, want)
	}

	b.prompt, waited = true, nil
	attempts := 0
	ok = b.retry(make(chan struct{}), func(int) error { attempts++; return errors.New("refused") },
		func(try int, _ error, _ time.Duration) bool { return try < 2 })
	if ok || attempts != 2 || !reflect.DeepEqual(waited, []time.Duration{time.Second}) {
		t.Errorf("told to stop after the 2nd failure: %v after %d attempts, waits %v; want false after 2, the first at once", ok, attempts, waited)
	}

	done := make(chan struct{})
	close(done)
	b.after = func(time.Duration) <-chan time.Time { return nil } // a wait that never ends
	attempts = 0
	gave := make(chan bool, 1)
	go func() {
		gave <- b.retry(done, func(int) error { attempts++; return errors.New("refused") },
			func(int, error, time.Duration) bool { return true })
	}()
	select {
	case ok = <-gave:
		if ok || attempts != 1 {
			t.Errorf("closed during the wait after the first failure: %v after %d attempts, want false after 1", ok, attempts)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("retry still waits 10 s after done was closed")
	}
}

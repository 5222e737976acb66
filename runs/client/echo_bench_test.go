package client

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/ptyhost/keys"
	"corral/runs"
	"corral/runs/api"
)

// BenchmarkInputEcho times the hops of a typed token's echo through a server, as an
// attached UI sends it: the token's first key alone and the rest in a second input
// call (the keys typed while the first was on its way), to a PTY run of cat whose
// screen the client watches, 50 ms apart. Per token, from the first call's start:
//
//   - sent: both requests written to the socket;
//   - replied: both replies read (the server wrote both to the PTY);
//   - echo: the frame that shows the whole token has reached the client's screen
//     (the server's PTY read, its screen, its stream, the client's read).
//
// Reported: each hop's p50 and p90 in ms. The sub-benchmarks are the input lane as
// it is (pipelined: the second request goes out before the first's reply) and one
// call at a time (the second waits for the first's reply), the way it was.
func BenchmarkInputEcho(b *testing.B) {
	for _, mode := range []string{"pipelined", "one-at-a-time"} {
		b.Run(mode, func(b *testing.B) {
			dir, _, _ := serve(b)
			r := attach(b, dir)
			ctx := context.Background()
			sp, err := api.Spawn.Call(ctx, r, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"cat"}, PTY: true}})
			if err != nil {
				b.Fatal(err)
			}
			defer api.Kill.Call(ctx, r, api.RunRef{ID: sp.ID})
			if err := r.Watch(sp.ID); err != nil {
				b.Fatal(err)
			}
			shows := func(text string) {
				deadline := time.After(10 * time.Second)
				for {
					if s, err := r.Screen(sp.ID); err == nil && strings.Contains(s.Text(), text) {
						return
					}
					select {
					case <-r.Events():
					case <-deadline:
						s, err := r.Screen(sp.ID)
						var got string
						if err == nil {
							got = s.Text()
						}
						b.Fatalf("%q never showed: %v\n%q", text, err, got)
					}
				}
			}
			input := func(text string) api.InputArgs {
				return api.InputArgs{ID: sp.ID, Items: []keys.Item{{Text: text, IsText: true}}, Viewer: r.Viewer()}
			}
			var sent, replied, echo []time.Duration
			n := 0
			for b.Loop() {
				token := fmt.Sprintf("k%dq", n)
				n++
				t0 := time.Now()
				var finishes []func(context.Context) (any, error)
				for _, part := range []string{token[:1], token[1:]} {
					if mode == "pipelined" {
						f, err := r.Begin(ctx, api.Input, input(part))
						if err != nil {
							b.Fatal(err)
						}
						finishes = append(finishes, f)
						continue
					}
					if _, err := api.Input.Call(ctx, r, input(part)); err != nil {
						b.Fatal(err)
					}
				}
				sent = append(sent, time.Since(t0))
				for _, f := range finishes {
					if _, err := f(ctx); err != nil {
						b.Fatal(err)
					}
				}
				replied = append(replied, time.Since(t0))
				shows(token)
				echo = append(echo, time.Since(t0))
				b.StopTimer()
				if _, err := api.Input.Call(ctx, r, input("\r")); err != nil {
					b.Fatal(err)
				}
				shows(token + strings.Repeat(" ", 120-len(token)) + "\n" + token) // the line printed back by cat
				// A typist's pause (modelled, not awaited), so the stream's frame budget
				// is what a person typing leaves it, not a flood's.
				time.Sleep(50 * time.Millisecond)
				b.StartTimer()
			}
			for _, s := range []struct {
				name string
				d    []time.Duration
			}{{"sent", sent}, {"replied", replied}, {"echo", echo}} {
				b.ReportMetric(quantile(s.d, 0.5), s.name+"-p50-ms")
				b.ReportMetric(quantile(s.d, 0.9), s.name+"-p90-ms")
			}
		})
	}
}

// quantile is d's p quantile in ms.
func quantile(d []time.Duration, p float64) float64 {
	l := slices.Clone(d)
	slices.Sort(l)
	return float64(l[int(p*float64(len(l)-1))]) / float64(time.Millisecond)
}

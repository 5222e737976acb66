package server

import (
	"slices"
	"testing"
	"time"

	"corral/runs"
	"corral/runs/api"
)

// BenchmarkPollRoundTrip is one corral poll's call on an open connection: the
// request, the server's poll of a quiet run and the reply (p50/p99 in µs).
func BenchmarkPollRoundTrip(b *testing.B) {
	h := newHarness(b)
	c := h.client(b)
	sp, err := api.Spawn.Call(ctx, c, api.SpawnArgs{Spec: runs.Spec{Argv: []string{"sleep", "300"}}})
	if err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for b.Loop() {
		t := time.Now()
		if _, err := api.Poll.Call(ctx, c, api.PollArgs{ID: sp.ID}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	slices.Sort(lat)
	at := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / float64(time.Microsecond) }
	b.ReportMetric(at(0.5), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

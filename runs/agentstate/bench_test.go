package agentstate

import (
	"slices"
	"testing"
	"time"

	"corral/ptyhost/screen"
	"corral/runs/agentstate/agenttest"
)

// BenchmarkCorpusDetection replays the recorded corpus as a run judges it and
// reports the detection latency, from the byte that brought a state to the judgment
// that said so, over every labelled transition (p50, p99, max: cast time, plus what
// the judging itself cost), and the judging's CPU per MB of agent output (the
// screen's emulation of what it read included: a run nobody looks at is emulated
// only for its judgments).
func BenchmarkCorpusDetection(b *testing.B) {
	var lat []time.Duration
	var judging time.Duration
	bytes := 0
	for b.Loop() {
		lat, judging, bytes = lat[:0], 0, 0
		for _, name := range agenttest.Recordings {
			r := newReplay(b, name)
			cost := judgingCost(b, name, r)
			judging += cost
			bytes += r.off
			per := cost / time.Duration(max(len(r.judged), 1))
			for _, d := range r.latencies(b) {
				lat = append(lat, d+per)
			}
		}
	}
	slices.Sort(lat)
	at := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(at(1), "max-ms")
	b.ReportMetric(float64(len(lat)), "transitions")
	b.ReportMetric(float64(judging)/float64(time.Millisecond)/(float64(bytes)/1e6), "judging-ms/MB")
}

// judgingCost replays recording name once more, timing only the scheduled judgments
// (the reads of the screen they make included, not the feeding).
func judgingCost(b *testing.B, name string, r *replay) time.Duration {
	_, cast, err := agenttest.Load(corpusDir, name)
	if err != nil {
		b.Fatal(err)
	}
	s := screen.NewScreen(r.rec.Cols, r.rec.Rows)
	stream := cast.Stream()
	off, total := 0, time.Duration(0)
	for _, j := range r.judged {
		s.Write(stream[off:j.off])
		off = j.off
		start := time.Now()
		sig := s.Signals()
		r.agent.Evaluate(Input{Screen: s, Signals: Signals{Title: sig.Title, Announce: sig.Announce}})
		total += time.Since(start)
	}
	return total
}

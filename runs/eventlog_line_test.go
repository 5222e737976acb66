package runs

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// An event written without slog (eventLog.line) is byte for byte the line slog's JSON
// handler writes for it, with the handler's options (durations in milliseconds) and
// the instance; an event it cannot write so (a string to escape, a value of another
// kind, a key that is no string) is left to slog.
func TestEventLineAsSlogWritesIt(t *testing.T) {
	const instance = "i-3f9a<b>&c"
	var buf bytes.Buffer
	h := slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: millisAttr}).
		WithAttrs([]slog.Attr{slog.String("instance_id", instance)})
	e := &eventLog{instance: instance}
	at := []time.Time{
		time.Date(2026, 11, 29, 20, 45, 1, 123456789, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 5*3600+1800)),
		time.Now(), // with a monotonic reading, in the local zone
	}
	events := []struct {
		msg   string
		attrs []any
	}{
		{"exit", []any{"run_id", "r-12", "name", "build <all> & test", "state", "exited", "seq", 7, "reason", "supervisor-shutdown", "killed", 2, "exit_code", -1}},
		{"escalation", []any{"run_id", "r-12", "step", "term", "processes", 2}},
		{"cleanup", []any{"run_id", "r-12", "detail", "verified empty", "pid", 4242}},
		{"output", []any{"run_id", "r-1", "bytes", int64(1) << 40, "total", uint64(1) << 63}},
		{"lease", []any{"renewed", true, "took", 1500 * time.Millisecond, "left", -3 * time.Second}},
		{"started", nil},
	}
	for _, when := range at {
		for _, ev := range events {
			buf.Reset()
			rec := slog.NewRecord(when, slog.LevelInfo, ev.msg, 0)
			rec.Add(ev.attrs...)
			if err := h.Handle(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
			got, ok := e.line(when, ev.msg, ev.attrs)
			if !ok {
				t.Fatalf("%s %v: left to slog", ev.msg, ev.attrs)
			}
			if !bytes.Equal(got, buf.Bytes()) {
				t.Errorf("%s:\n got %s\nwant %s", ev.msg, got, buf.Bytes())
			}
		}
	}
	for _, ev := range []struct {
		msg   string
		attrs []any
	}{
		{"exit", []any{"name", `say "hi"`}},
		{"exit", []any{"name", `C:\tmp`}},
		{"exit", []any{"name", "two\nlines"}},
		{"exit", []any{"name", "café"}},
		{"ex\"it", nil},
		{"exit", []any{"argv", []string{"sh", "-c"}}},
		{"exit", []any{"code", int32(1)}},
		{"exit", []any{7, "seven"}},
		{"exit", []any{"odd"}},
		{"exit", []any{"err", context.Canceled}},
	} {
		if got, ok := e.line(at[0], ev.msg, ev.attrs); ok {
			t.Errorf("%s %v: written without slog: %s", ev.msg, ev.attrs, got)
		}
	}
	if _, ok := (&eventLog{instance: "a\"b"}).line(at[0], "exit", nil); ok {
		t.Error("an instance to escape: written without slog")
	}
}

// BenchmarkEventLine is one exit event as emit writes it (eventLog.line) and, as
// before, through slog's JSON handler: a shutdown writes about seven a run.
func BenchmarkEventLine(b *testing.B) {
	attrs := []any{"run_id", "r-12", "name", "sh", "state", "exited", "seq", 7, "pid", 4242, "reason", "supervisor-shutdown", "killed", 2, "exit_code", 0}
	b.Run("line", func(b *testing.B) {
		e := &eventLog{instance: "i-3f9a"}
		buf := make([]byte, 0, 512)
		for b.Loop() {
			var ok bool
			if buf, ok = e.appendLine(buf[:0], time.Now(), "exit", attrs); !ok {
				b.Fatal("left to slog")
			}
		}
	})
	b.Run("slog", func(b *testing.B) {
		var buf bytes.Buffer
		log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: millisAttr})).With("instance_id", "i-3f9a")
		for b.Loop() {
			buf.Reset()
			log.Info("exit", attrs...)
		}
	})
}

package castplay

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// bigCast is a 16 MiB recording (the default cap of a run's): 100,000 events.
func bigCast() []byte {
	var b bytes.Buffer
	b.WriteString(`{"version": 2, "width": 120, "height": 40}` + "\n")
	line := bytes.Repeat([]byte("x"), 150)
	for i := 0; b.Len() < 16<<20; i++ {
		fmt.Fprintf(&b, "[%.6f, \"o\", \"%s\\r\\n\"]\n", float64(i)/100, line)
	}
	return b.Bytes()
}

// Indexing a recording when the player starts.
func BenchmarkLoad16MiB(b *testing.B) {
	rec := bigCast()
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		if _, err := Load(bytes.NewReader(rec)); err != nil {
			b.Fatal(err)
		}
	}
}

// A seek back to the end of a 16 MiB recording: every event read again.
func BenchmarkSeekBack16MiB(b *testing.B) {
	rec := bigCast()
	ix, _ := Load(bytes.NewReader(rec))
	r := bytes.NewReader(rec)
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		p := NewPosition(ix, 1, time.Unix(0, 0))
		p.Seek(ix.Total(), time.Unix(0, 0))
		from, to, _ := p.Seek(ix.Total()-time.Second, time.Unix(0, 0))
		n := 0
		if err := ix.Read(r, from, to, func(_, d string) { n += len(d) }); err != nil || n == 0 {
			b.Fatal(err, n)
		}
	}
}

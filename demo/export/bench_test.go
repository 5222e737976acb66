package export

import (
	"path/filepath"
	"testing"
)

// BenchmarkExportDemo exports the built-in demo's recording (demo/demo.cast, made by
// make record) as SVG and GIF, at its own size (140×45) and cropped to 120×40: the
// time of one whole export, and the file's size (bytes/file).
func BenchmarkExportDemo(b *testing.B) {
	for _, c := range []struct {
		name       string
		cols, rows int
	}{{"recorded", 0, 0}, {"120x40", 120, 40}} {
		for _, ext := range []string{".svg", ".gif"} {
			b.Run(c.name+"/"+ext[1:], func(b *testing.B) {
				out := filepath.Join(b.TempDir(), "demo"+ext)
				o := Options{Timing: Timing{Speed: 1, FPS: DefaultFPS, Hold: DefaultHold, Cols: c.cols, Rows: c.rows}}
				var res Result
				for b.Loop() {
					var err error
					if res, err = File("../demo.cast", out, o); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Bytes), "bytes/file")
				b.ReportMetric(float64(res.Frames), "frames")
			})
		}
	}
}

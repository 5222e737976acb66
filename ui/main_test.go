package ui

import (
	"os"
	"testing"

	"corral/demo"
)

// TestMain lets the test binary double as the child programs of the end-to-end
// benchmarks (demo.Child), as the runs tests do.
func TestMain(m *testing.M) {
	demo.MaybeChild()
	os.Exit(m.Run())
}

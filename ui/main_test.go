package ui

import (
	"os"
	"testing"

	"corral/demo"
)

// TestMain lets the test binary double as the child programs of the end-to-end
// benchmarks (demo.Child), as the runs tests do, and as the idle floor of the bench.
func TestMain(m *testing.M) {
	demo.MaybeChild()
	if os.Getenv(floorEnv) == "1" {
		os.Exit(runFloor())
	}
	os.Exit(m.Run())
}

package ui

import (
	"os"
	"testing"

	"corral/demo/testkit"
)

// TestMain lets the test binary double as the child programs of the end-to-end
// benchmarks (demo.Child), as the runs tests do, and as the idle floor of the bench.
func TestMain(m *testing.M) {
	if os.Getenv(floorEnv) == "1" {
		os.Exit(runFloor())
	}
	testkit.Main(m)
}

// Package cliver finds which version of an agent CLI a command runs, without running
// it: the package.json of the npm package the command resolves into. Asking the CLI
// itself (--version) starts a Node program, which took from 25 ms to 19 s on a loaded
// machine; reading the file takes well under a millisecond. Used by corral doctor and
// by the real-agent tests that pin the versions they run.
package cliver

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrNoPackage is returned when no package.json of the wanted package is found
// above the command's resolved file (a CLI not installed by npm, or a wrapper script).
var ErrNoPackage = errors.New("no package.json of the CLI's npm package beside the command")

// Installed is the version of the npm package (one of packages) that bin, a command's
// path, resolves into: symbolic links followed, then the directories above the file
// searched for a package.json that names one of packages.
func Installed(bin string, packages []string) (string, error) {
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return "", err
	}
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
			var p struct{ Name, Version string }
			if json.Unmarshal(b, &p) == nil && slices.Contains(packages, p.Name) && p.Version != "" {
				return p.Version, nil
			}
		}
		if filepath.Dir(dir) == dir || filepath.Base(dir) == "node_modules" {
			return "", fmt.Errorf("%w (%s)", ErrNoPackage, real)
		}
	}
}

// Compare orders two versions by their dot-separated numbers ("2.1.197" < "2.1.332";
// a pre-release's suffix after "-" is ignored): -1, 0 or 1.
func Compare(a, b string) int {
	pa, pb := parts(a), parts(b)
	for i := range max(len(pa), len(pb)) {
		x, y := at(pa, i), at(pb, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func parts(v string) []int {
	v, _, _ = strings.Cut(strings.TrimPrefix(strings.TrimSpace(v), "v"), "-")
	var out []int
	for _, f := range strings.Split(v, ".") {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

func at(p []int, i int) int {
	if i < len(p) {
		return p[i]
	}
	return 0
}

// Verdict says how version stands against the versions rules were recorded with:
// "recorded", "newer than recorded: rules may be stale", "older than recorded", or
// "not recorded (between recorded versions)"; "" when nothing was recorded.
func Verdict(version string, recorded []string) string {
	if len(recorded) == 0 {
		return ""
	}
	newest, oldest := recorded[0], recorded[0]
	for _, r := range recorded {
		if Compare(version, r) == 0 {
			return "recorded"
		}
		if Compare(r, newest) > 0 {
			newest = r
		}
		if Compare(r, oldest) < 0 {
			oldest = r
		}
	}
	switch {
	case Compare(version, newest) > 0:
		return "newer than recorded: rules may be stale"
	case Compare(version, oldest) < 0:
		return "older than recorded"
	}
	return "not recorded (between recorded versions)"
}

package ui

import (
	"github.com/charmbracelet/x/ansi"

	"corral/ui/internal/uitest"
)

// stripANSI drops escape sequences: goldens are compared as the text a person sees.
func stripANSI(s string) string { return ansi.Strip(s) }

// goldenView checks a view against testdata/name.golden, as text and styled.
var goldenView = uitest.GoldenView

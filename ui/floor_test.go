package ui

import (
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// floorEnv makes the ui test binary the idle floor of `make bench`: a Bubble Tea
// program run the way main runs Corral's (alt screen, default frame rate, no signal
// handler) whose view never changes. What it costs idle is what the framework costs
// before Corral does anything: its renderer wakes on a 60 Hz ticker whether or not a
// frame changed.
const floorEnv = "CORRAL_BENCH_FLOOR"

type floorModel struct{ frame string }

func (m floorModel) Init() tea.Cmd { return nil }

func (m floorModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "q" {
		return m, tea.Quit
	}
	return m, nil
}

func (m floorModel) View() tea.View {
	v := tea.NewView(m.frame)
	v.AltScreen = true
	return v
}

// runFloor runs the static program until q.
func runFloor() int {
	row := strings.Repeat("idle ", 37)
	frame := strings.TrimSuffix(strings.Repeat(row+"\n", 50), "\n")
	if _, err := tea.NewProgram(floorModel{frame}, tea.WithoutSignalHandler()).Run(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

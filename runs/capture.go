package runs

import (
	"fmt"
	"strings"

	"corral/ptyhost/screen"
)

// Capture is a run's screen as text, as `tmux capture-pane -p [-e] [-S -]` gives a
// pane's (corral screen): the rendered rows, trailing blanks trimmed, with SGR
// attributes when asked for, and the history above them (the lines that scrolled off)
// when asked for. A full-screen agent's raw output (poll, log) is unreadable; its
// screen is what a person reads.
type Capture struct {
	ID    string   `json:"id"`
	Cols  int      `json:"cols"`
	Rows  int      `json:"rows"`
	Lines []string `json:"lines"`
	// HistoryLines is how many of Lines, first, are history (0 unless asked for).
	HistoryLines  int    `json:"history_lines"`
	CursorX       int    `json:"cursor_x"`
	CursorY       int    `json:"cursor_y"`
	CursorVisible bool   `json:"cursor_visible"`
	AltScreen     bool   `json:"alt_screen"`
	Title         string `json:"title"`
	// A capture too large for one reply comes in pages (api.ScreenAll reads them
	// all): Lines are then the capture's lines From on, of TotalLines; both are 0
	// when Lines are the whole capture.
	From       int `json:"from,omitempty"`
	TotalLines int `json:"total_lines,omitempty"`
}

// Capture returns run id's screen now; escapes keeps its attributes as SGR sequences,
// history puts the lines that scrolled off the screen (as tmux keeps them) first.
func (s *Supervisor) Capture(id string, escapes, history bool) (Capture, error) {
	r, err := s.get(id)
	if err != nil {
		return Capture{}, err
	}
	if r.screen == nil {
		return Capture{}, fmt.Errorf("%s: %w", id, ErrNoScreen)
	}
	st := r.screen.State()
	c := Capture{ID: id, CursorX: st.CursorX, CursorY: st.CursorY, CursorVisible: st.CursorVisible,
		AltScreen: st.AltScreen, Title: st.Title}
	c.Cols, c.Rows = r.screen.Size()
	if history {
		c.Lines = r.screen.Scrollback()
		c.HistoryLines = max(len(c.Lines)-c.Rows, 0)
		if !escapes {
			for i, l := range c.Lines {
				c.Lines[i] = strings.TrimRight(screen.Plain(l), " ")
			}
		}
		return c, nil
	}
	text := r.screen.Text()
	if escapes {
		text = r.screen.Render()
	}
	for _, l := range strings.Split(text, "\n") {
		c.Lines = append(c.Lines, trimBlank(l))
	}
	return c, nil
}

// trimBlank drops a rendered row's trailing blanks that have no attribute: a row
// whose last cells are styled ends with a reset, and keeps them.
func trimBlank(line string) string {
	if strings.HasSuffix(line, "\x1b[0m") {
		return line
	}
	return strings.TrimRight(line, " ")
}

// Package ui is Corral's terminal UI (Bubble Tea v2): every run in one screen, its live
// terminal, watchdog, reason and process tree, and the operator's keys.
//
// Shape:
//
//   - The root Model only routes: global messages (window size, quit, help), then by
//     mode (browsing, the list's filter, focus, dialog, help, scroll/search), then by
//     owner (a run event to the run list and the events pane, a screen change to the
//     terminal pane).
//   - One component per pane, each a package of its own that never imports ui:
//     ui/runlist (runlist.List), ui/details, ui/terminal, ui/events, and ui/dialog and
//     ui/help for what opens over them; each has New, Update returning its concrete
//     type, View and SetSize, its fields unexported, so the root reaches them through
//     their methods only. A list row (runlist.Row) is a run or a configured run not
//     started yet; Details and Terminal show one row. Components with keys of their own
//     have their own KeyMap, embedded in KeyMap (keys.go), which overrides by action
//     name. They share one read-only *common.Common (styles, clock, drawing helpers).
//   - Package ui/dialog owns the dialogs (Host, Prompt, Confirm, Form); a dialog done
//     answers with a typed message (dialog.ConfirmAnswer, PromptAnswer, FormAnswer)
//     that the Model routes to an action (dialogs.go); package ui/help is the help
//     page. The reads in flight (requests.go), the per-run input queues
//     (inputqueue.go), the PTY sizes asked for (runsizes.go), the stray-key guard
//     (guard.go) and the parity pair (pair.go) are small types of their own.
//   - Engine calls happen only off the UI goroutine: inside tea.Cmds, which capture
//     values, never the model (most built by cmds.go; link.go, hosts.go and restore.go
//     build the ones they need), and in the per-run input writers such a command starts
//     (inputqueue.go: Update hands them keys by a channel send). Update and View do no
//     I/O; a test proves it with a counting fake.
//   - Engine events arrive through Bridge, one goroutine: lifecycle events one message
//     each, output coalesced to at most one OutputMsg per frame.
//   - Each pane caches its bordered string keyed by what it shows (a run's
//     Screen.Version, sizes, the clock's second), and the root joins pane lines by hand:
//     lipgloss joins and borders cost more than rendering the emulator (four bordered
//     120×40 panes: 2.26 ms to join with lipgloss and 0.64 ms a border, 0.034 ms by hand).
//
// Colours: the ANSI 16-colour palette plus bold, faint and reverse, never fixed 256 or
// true colours. Terminal themes tune those 16 for their own background, so one palette
// reads on dark and light terminals without asking the terminal its background.
//
// Safety: nothing a hosted program prints reaches the host terminal except through the
// cell grid screen.Screen renders (or, for pipe runs and transcripts, through text
// stripped of every escape sequence and control character). Names and titles are
// stripped of control characters. Rendering a run's pane recovers from panics and shows
// the error in that pane.
package ui

package runs

import "strings"

// hostTermVars name the variables that describe the terminal Corral itself
// runs in. A hosted program must not see them: they describe another terminal.
// Claude Code inside a Corral pane inside tmux otherwise finds TMUX and asks
// the user to edit ~/.tmux.conf. A name ending in "*" is a prefix.
var hostTermVars = [...]string{
	"TMUX", "TMUX_PANE", "STY", "WINDOW", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
	"TERM_SESSION_ID", "KITTY_WINDOW_ID", "KITTY_PID", "KITTY_PUBLIC_KEY", "KITTY_LISTEN_ON",
	"WEZTERM_*", "ZELLIJ*", "ITERM_SESSION_ID", "ITERM_PROFILE", "LC_TERMINAL",
	"LC_TERMINAL_VERSION", "ALACRITTY_*", "KONSOLE_*", "VTE_VERSION", "GNOME_TERMINAL_*",
	"WT_SESSION", "WT_PROFILE_ID", "TERMINATOR_*", "TILIX_ID", "GHOSTTY_*", "COLORTERM",
}

// runEnv returns the environment of a run from the caller's: the host
// terminal's variables removed, and for a PTY run the terminal Corral's
// Screen is (TERM, truecolour, TERM_PROGRAM=corral). A pipe run keeps the
// caller's TERM, as its output goes to no terminal of Corral's.
func runEnv(caller []string, pty bool, term string) []string {
	env := make([]string, 0, len(caller)+3)
	for _, kv := range caller {
		name, _, _ := strings.Cut(kv, "=")
		if !isHostTermVar(name) && !(pty && name == "TERM") {
			env = append(env, kv)
		}
	}
	if pty {
		env = append(env, "TERM="+term, "COLORTERM=truecolor", "TERM_PROGRAM=corral")
	}
	return env
}

func isHostTermVar(name string) bool {
	for _, v := range hostTermVars {
		if p, ok := strings.CutSuffix(v, "*"); ok && strings.HasPrefix(name, p) || name == v {
			return true
		}
	}
	return false
}

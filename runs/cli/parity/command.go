package parity

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// usage is corral parity's --help; %s is where the flags go.
const usage = `usage: corral parity [flags] -- CMD [ARGS...]
       corral parity --shell [flags] -- 'COMMAND LINE'

Starts the command twice at the same moment, once in a PTY ("NAME (pty)") and once with
plain pipes ("NAME (pipe)"), under one supervisor and one lifecycle; writes --input to both,
then ends their input (pipe: stdin closed; PTY: ^D); waits for both and says what differs:
output, reason, exit code or signal, cleanup steps (a PTY run's hang-up aside), processes
killed, escapees. Durations are shown, not compared.

flags:
%s
normalization (unless --raw), in order:
%s
exit codes (as diff(1)):
  0  identical   1  different   2  trouble (bad flags, Corral failed, interrupted)
`

// Usage is corral parity's --help with the normalization rules filled in; its one
// %s is where the flags go.
func Usage() string {
	rules := "  - " + strings.Join(Rules, "\n  - ")
	return strings.Replace(usage, "%s\nexit", rules+"\nexit", 1)
}

// Write writes the comparison to w: as text, or as indented JSON with asJSON.
func (r Result) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	_, err := fmt.Fprint(w, r.Text())
	return err
}

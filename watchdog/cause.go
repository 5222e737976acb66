package watchdog

import "strconv"

// Cause says which deadline fired.
type Cause int

const (
	None     Cause = iota // nothing fired
	Overall               // the overall timeout passed
	NoOutput              // no output for the no-output timeout
)

func (c Cause) String() string {
	switch c {
	case None:
		return "none"
	case Overall:
		return "overall-timeout"
	case NoOutput:
		return "no-output-timeout"
	}
	return "Cause(" + strconv.Itoa(int(c)) + ")"
}

package export

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"corral/demo/export/theme"
	"corral/ptyhost/screen"
)

// Flags are corral export's flags.
type Flags struct {
	from, to, idle, at, hold seconds
	last                     bool
	speed                    float64
	fps, cols, rows, loop    int
	theme, font              string
}

// DefaultFPS caps the frames a second of an animation; DefaultHold is how long its
// last frame stays.
const (
	DefaultFPS  = 30
	DefaultHold = 2 * time.Second
)

// MinSpeed and MaxSpeed bound --speed: slower than 1/100 or faster than 1000 times is
// no longer a recording one watches, and the times would overflow.
const (
	MinSpeed = 0.01
	MaxSpeed = 1000.0
)

// maxTime bounds a time flag: a hundred years, which a duration holds.
const maxTime = 100 * 365 * 24 * time.Hour

// AddFlags defines corral export's flags on fs.
func AddFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{hold: seconds{d: DefaultHold}}
	fs.Var(&f.from, "from", "start at this `time` of the recording (seconds, or a duration: 1m30s)")
	fs.Var(&f.to, "to", "end at this `time` of the recording (default: its end)")
	fs.Var(&f.idle, "idle-limit", "shorten every pause longer than this `time` to it, as asciinema does (e.g. 2s; 0 keeps them;\n"+
		"default: the recording's idle_time_limit if its header has one, else keep them)")
	fs.Float64Var(&f.speed, "speed", 1, "play this many times as fast")
	fs.IntVar(&f.fps, "fps", DefaultFPS, "at most this many frames a second")
	fs.Var(&f.at, "at", "a still picture: the screen at this `time` of the recording")
	fs.BoolVar(&f.last, "last", false, "a still picture: the screen at the end of the recording")
	fs.Var(&f.hold, "hold", "how long (a `time`) the last frame stays before the animation ends or loops")
	fs.IntVar(&f.cols, "cols", 0, "columns of the picture, cut or padded from the left (default: the recording's, the widest it grew to)")
	fs.IntVar(&f.rows, "rows", 0, "rows of the picture, cut or padded from the top (default: the recording's, the tallest it grew to)")
	fs.StringVar(&f.theme, "theme", theme.DefaultName, "colours: "+strings.Join(theme.Names(), ", ")+
		",\nor a TOML file of foreground, background, cursor and palette (16 \"#rrggbb\")")
	fs.StringVar(&f.font, "font", "", "a TrueType or OpenType monospace font file for GIF and PNG (default: Go Mono, built in)")
	fs.IntVar(&f.loop, "loop", 0, "play the animation this many times (0: for ever)")
	return f
}

// Options checks the flags and returns the export's options.
func (f *Flags) Options() (Options, error) {
	switch {
	case !(f.speed >= MinSpeed && f.speed <= MaxSpeed): // NaN too
		return Options{}, fmt.Errorf("--speed must be %g to %g", MinSpeed, MaxSpeed)
	case f.fps <= 0 || f.fps > 50:
		return Options{}, fmt.Errorf("--fps must be 1 to 50 (a GIF's delays are hundredths of a second; browsers slow shorter ones)")
	case f.cols < 0 || f.rows < 0 || f.loop < 0:
		return Options{}, fmt.Errorf("--cols, --rows and --loop cannot be negative")
	case f.cols > screen.MaxCols || f.rows > screen.MaxRows:
		return Options{}, fmt.Errorf("--cols can be at most %d and --rows %d (a terminal's largest size)", screen.MaxCols, screen.MaxRows)
	case f.to.set && f.to.d <= f.from.d:
		return Options{}, fmt.Errorf("--to must be after --from")
	case f.hold.d > time.Hour:
		return Options{}, fmt.Errorf("--hold can be at most 1h")
	case f.at.set && f.last:
		return Options{}, fmt.Errorf("--at and --last both ask for a still picture: give one")
	}
	idle := f.idle.d
	if f.idle.set && idle == 0 {
		idle = -1 // pauses kept, even where the recording's header limits them
	}
	o := Options{Theme: f.theme, Font: f.font, Loop: f.loop, Timing: Timing{
		From: f.from.d, To: f.to.d, IdleLimit: idle, Speed: f.speed, FPS: f.fps, Hold: f.hold.d,
		Cols: f.cols, Rows: f.rows, Still: f.at.set || f.last, At: f.at.d}}
	if f.last {
		o.At = time.Duration(1<<63 - 1)
	}
	return o, nil
}

// seconds is a time flag: a number of seconds or a Go duration.
type seconds struct {
	d   time.Duration
	set bool
}

func (s *seconds) String() string {
	if s == nil || !s.set && s.d == 0 {
		return ""
	}
	return s.d.String()
}

func (s *seconds) Set(v string) error {
	if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f <= maxTime.Seconds() {
		s.d, s.set = time.Duration(f*float64(time.Second)), true
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > maxTime {
		return fmt.Errorf("%q is not a time (seconds, or a duration such as 1m30s)", v)
	}
	s.d, s.set = d, true
	return nil
}

// ProgressTo returns a Progress that draws a percentage on w (a terminal) once an
// export has taken a second, at most four times a second.
func ProgressTo(w io.Writer, what string) func(float64) {
	start := time.Now()
	var last time.Time
	shown := false
	return func(done float64) {
		now := time.Now()
		if now.Sub(start) < time.Second || now.Sub(last) < 250*time.Millisecond && done < 1 {
			return
		}
		if done >= 1 && !shown {
			return
		}
		last, shown = now, true
		fmt.Fprintf(w, "\r%s: %3.0f%%", what, 100*done)
		if done >= 1 {
			fmt.Fprint(w, "\n")
		}
	}
}

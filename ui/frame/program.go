package frame

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"corral/ptyhost/hoptrace"
)

// Program is a tea.Program whose frames a Renderer draws, or, with
// CORRAL_RENDERER=bubbletea in the environment, a plain tea.Program.
type Program struct {
	*tea.Program
	r    *Renderer // nil: Bubble Tea renders
	term *terminal
}

// active is the running Program's terminal, for ExecProcess.
var active struct {
	sync.Mutex
	t *terminal
}

// NewProgram is tea.NewProgram(m, opts...) drawn by this package (see the package
// doc), on the process's stdin and stdout. In Windows it is Bubble Tea's renderer
// still: the console's input modes are set by Bubble Tea only when it renders.
func NewProgram(m tea.Model, opts ...tea.ProgramOption) *Program {
	if os.Getenv("CORRAL_RENDERER") == "bubbletea" || runtime.GOOS == "windows" {
		return &Program{Program: tea.NewProgram(m, opts...)}
	}
	w, h, err := term.GetSize(int(os.Stdout.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	r := New(os.Stdout, os.Environ(), w, h)
	// As Bubble Tea detects it (and tells the model, and filter, after the first frame).
	r.SetColorProfile(colorprofile.Detect(os.Stdout, os.Environ()))
	t := &terminal{r: r, in: os.Stdin, out: os.Stdout}
	p := &Program{r: r, term: t}
	opts = append(opts,
		tea.WithoutRenderer(),
		// Bubble Tea still runs its ticker without a renderer, only to write what
		// tea.Raw and its queries queued: those are written here, at once, so the
		// ticker is slowed to its least, and stopped once running (ticker.go).
		tea.WithFPS(1),
		tea.WithFilter(t.filter))
	p.Program = tea.NewProgram(model{m, t}, opts...)
	t.send = p.Program.Send
	t.prog = p.Program
	return p
}

// Run runs the program (see tea.Program.Run) with the terminal in raw mode and the
// frames drawn here; the terminal is given back as it was when it returns, and
// when Update, View or a command panics, before Bubble Tea prints the panic. The model returned is the one given to NewProgram's
// type.
func (p *Program) Run() (tea.Model, error) {
	if p.r == nil {
		return p.Program.Run()
	}
	if err := p.term.take(); err != nil {
		return nil, err
	}
	active.Lock()
	active.t = p.term
	active.Unlock()
	defer func() {
		active.Lock()
		active.t = nil
		active.Unlock()
		p.term.give()
	}()
	stop := p.term.watchSize()
	defer stop()
	stopped := p.term.watchStop()
	defer stopped()
	if shouldAskSync(os.Environ()) {
		// Does the terminal have synchronized output (2026) and unicode core (2027)?
		// The answers come back as input, and filter reads them.
		p.r.Write(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
	}
	final, err := p.Program.Run()
	if m, ok := final.(model); ok {
		final = m.Model
	}
	return final, err
}

// terminal is the terminal's state around a Program: raw mode on its input, the
// renderer on its output.
type terminal struct {
	r    *Renderer
	in   *os.File
	out  *os.File
	send func(tea.Msg)

	prog   *tea.Program // for its ticker (ticker.go), read from Update
	ticker *time.Ticker // Bubble Tea's, once found

	mu    sync.Mutex
	saved *term.State // the input's state before raw mode; nil when not taken
	lent  bool        // a pager or another program has the terminal (ExecProcess)
}

// take puts the input in raw mode and starts the renderer.
func (t *terminal) take() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved == nil && term.IsTerminal(int(t.in.Fd())) {
		st, err := term.MakeRaw(int(t.in.Fd()))
		if err != nil {
			return err
		}
		t.saved = st
	}
	t.r.Start()
	return nil
}

// give stops the renderer (modes reset, the alternate screen left) and puts the
// input back as it was.
func (t *terminal) give() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.r.Stop()
	if t.saved != nil {
		_ = term.Restore(int(t.in.Fd()), t.saved)
		t.saved = nil
	}
}

// resized reads the terminal's size and tells the renderer and the model when it
// changed (or always, with force: after the terminal was someone else's).
func (t *terminal) resized(force bool) {
	w, h, err := term.GetSize(int(t.out.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		return
	}
	t.r.mu.Lock()
	same := w == t.r.width && h == t.r.height
	t.r.mu.Unlock()
	if same && !force {
		return
	}
	t.r.Resize(w, h)
	if t.send != nil {
		// Not waited on: this runs in Bubble Tea's event loop too (a pager's end).
		go t.send(tea.WindowSizeMsg{Width: w, Height: h})
	}
}

// filter sees every message before Bubble Tea and the model do: it follows what
// Bubble Tea's renderer would have been told.
func (t *terminal) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		hoptrace.Mark("ui.key", msg.Text)
	case tea.WindowSizeMsg:
		if msg.Width <= 0 || msg.Height <= 0 {
			// Without its renderer Bubble Tea does not read the size: it sends 0×0
			// at start. The size is sent from here.
			return nil
		}
		t.r.Resize(msg.Width, msg.Height)
	case tea.ColorProfileMsg:
		t.r.SetColorProfile(msg.Profile)
	case tea.ModeReportMsg:
		switch msg.Mode {
		case ansi.ModeSynchronizedOutput:
			if msg.Value == ansi.ModeReset {
				t.r.SetSynchronized(true)
			}
		case ansi.ModeUnicodeCore:
			if msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet {
				t.r.SetGraphemeWidth()
			}
		}
	case tea.RawMsg:
		t.r.Write(fmt.Sprint(msg.Msg)) // as Bubble Tea writes it
		return nil
	case tea.SuspendMsg:
		t.give() // before Bubble Tea stops the process
	case tea.ResumeMsg:
		if err := t.take(); err == nil {
			t.resized(true)
		}
	}
	return msg
}

// watchSize sends the terminal's size at start and whenever it changes (SIGWINCH
// where there is one); the returned func stops watching.
func (t *terminal) watchSize() (stop func()) {
	done := make(chan struct{})
	go func() {
		t.resized(true)
		notifyResize(done, func() { t.resized(false) })
	}()
	return func() { close(done) }
}

// watchStop gives the terminal back while the process is stopped (notifyStop): the
// shell it returns to gets it as it was, and the frame is drawn in full after fg. The
// returned func stops watching.
func (t *terminal) watchStop() (stop func()) {
	done := make(chan struct{})
	go notifyStop(done, t.stopped, t.continued)
	return func() { close(done) }
}

// stopped gives the terminal back before the process stops, unless a program run by
// ExecProcess has it (it stops with the process group, and has it again on fg).
func (t *terminal) stopped() {
	if !t.lentOut() {
		t.give()
	}
}

// continued takes the terminal again after fg and draws the frame in full, unless a
// program run by ExecProcess has it.
func (t *terminal) continued() {
	if !t.lentOut() && t.take() == nil {
		t.resized(true)
	}
}

// ExecProcess is tea.ExecProcess, giving the terminal to c as this package draws
// it: modes reset and raw mode left for c, taken back and redrawn after.
func ExecProcess(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd {
	return tea.Exec(&handOver{Cmd: c}, fn)
}

type handOver struct{ *exec.Cmd }

func (h *handOver) Run() error {
	active.Lock()
	t := active.t
	active.Unlock()
	if t == nil {
		return h.Cmd.Run()
	}
	t.give()
	t.lend(true)
	err := h.Cmd.Run()
	t.lend(false)
	if terr := t.take(); err == nil {
		err = terr
	}
	t.resized(true)
	return err
}

// lend notes that a program run by ExecProcess has the terminal (or no longer has it).
func (t *terminal) lend(on bool) {
	t.mu.Lock()
	t.lent = on
	t.mu.Unlock()
}

// lentOut reports whether a program run by ExecProcess has the terminal: a stop and
// fg meanwhile leave it to that program.
func (t *terminal) lentOut() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lent
}

func (h *handOver) SetStdin(r io.Reader) {
	if h.Stdin == nil {
		h.Stdin = r
	}
}

func (h *handOver) SetStdout(w io.Writer) {
	if h.Stdout == nil {
		h.Stdout = w
	}
}

func (h *handOver) SetStderr(w io.Writer) {
	if h.Stderr == nil {
		h.Stderr = w
	}
}

// model is the UI's model with its view handed to the renderer after every Update
// (Bubble Tea calls View right after each Update, and once at start and end).
type model struct {
	tea.Model
	t *terminal
}

func (m model) Init() tea.Cmd { return m.t.guard(m.Model.Init()) }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.t.giveOnPanic()
	m.t.quietTicker()
	a, ok := msg.(AtOncer)
	m.t.r.SetAtOnce(ok && a.FrameAtOnce())
	next, cmd := m.Model.Update(msg)
	return model{next, m.t}, m.t.guard(cmd)
}

// guard is cmd giving the terminal back if it panics, as are the commands of a batch or
// a sequence it returns (Bubble Tea runs commands on goroutines of its own, and prints
// their panics too).
func (t *terminal) guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		defer t.giveOnPanic()
		msg := cmd()
		t.guardAll(msg)
		return msg
	}
}

var cmdType = reflect.TypeFor[tea.Cmd]()

// guardAll guards, in place, the commands msg holds when it is a list of commands for
// Bubble Tea to run: a tea.BatchMsg, or what tea.Sequence returns, whose type is
// Bubble Tea's own and unexported (a []tea.Cmd all the same).
func (t *terminal) guardAll(msg tea.Msg) {
	if b, ok := msg.(tea.BatchMsg); ok {
		for i := range b {
			b[i] = t.guard(b[i])
		}
		return
	}
	v := reflect.ValueOf(msg)
	if msg == nil || v.Kind() != reflect.Slice || v.Type().Elem() != cmdType {
		return
	}
	for i := range v.Len() {
		if c, _ := v.Index(i).Interface().(tea.Cmd); c != nil {
			v.Index(i).Set(reflect.ValueOf(t.guard(c)))
		}
	}
}

func (m model) View() tea.View {
	defer m.t.giveOnPanic()
	if s, ok := m.Model.(Stiller); ok && s.Still() {
		hoptrace.Mark("ui.still", "")
		return tea.View{} // the frame drawn last is still what it would draw
	}
	hoptrace.Mark("ui.view", "")
	m.t.r.Submit(m.Model.View())
	return tea.View{}
}

// AtOncer is a message after which the view is drawn at once, whatever the frame
// budget (within the echoes' own: EchoRate, EchoBurst), when FrameAtOnce is true: it
// carries the echo of what was typed (Renderer.SetAtOnce).
type AtOncer interface {
	FrameAtOnce() bool
}

// Stiller is a model that can say its last Update changed nothing on screen (Bubble
// Tea calls View after every Update, and a model woken for work that changes nothing,
// a periodic read, would compose its whole view only to have it found unchanged):
// while Still is true its View is not asked for, and the last frame stands.
type Stiller interface {
	Still() bool
}

// giveOnPanic gives the terminal back before a panic goes on to Bubble Tea, which
// prints it: on the terminal as it was, not on the alternate screen.
func (t *terminal) giveOnPanic() {
	if e := recover(); e != nil {
		t.give()
		panic(e)
	}
}

// shouldAskSync reports whether to ask the terminal for synchronized output: as
// Bubble Tea decides it, local terminals and those known to answer, not over ssh
// (where the answer may come too late) nor Apple's Terminal.
func shouldAskSync(env []string) bool {
	get := func(k string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v, true
			}
		}
		return "", false
	}
	termType, _ := get("TERM")
	prog, hasProg := get("TERM_PROGRAM")
	_, ssh := get("SSH_TTY")
	_, wt := get("WT_SESSION")
	if !ssh && (!hasProg || !strings.Contains(prog, "Apple")) || wt {
		return true
	}
	for _, known := range []string{"ghostty", "wezterm", "alacritty", "kitty", "rio"} {
		if strings.Contains(termType, known) {
			return true
		}
	}
	return false
}

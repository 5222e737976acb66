package ui

// ProbeMsg asks the model what a person would see of it: the selected run and whether
// a y/n question is open. Update answers on Reply, which must have room, after every
// message sent before it: a driver outside the UI (the demo's autoplay, in package
// launch) reads with it what its keys have done.
type ProbeMsg struct{ Reply chan<- Probe }

// Probe is the model's answer to a ProbeMsg.
type Probe struct {
	Selected string // the selected run's name
	Asking   bool   // a y/n question is open
}

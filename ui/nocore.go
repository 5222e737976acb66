package ui

import (
	"context"

	"corral/ptyhost"
	"corral/reaper"
	"corral/runs"
)

// noCore stands in for a missing Core: every call fails with ErrNoCore, so a model
// built only to check keys can never dereference nil.
type noCore struct{}

func (noCore) Snapshot() []runs.Info                                 { return nil }
func (noCore) Spawn(runs.Spec) (string, error)                       { return "", ErrNoCore }
func (noCore) Cancel(string) error                                   { return ErrNoCore }
func (noCore) Stop(string, runs.Reason) error                        { return ErrNoCore }
func (noCore) Interrupt(string) error                                { return ErrNoCore }
func (noCore) Pause(string) error                                    { return ErrNoCore }
func (noCore) Resume(string) error                                   { return ErrNoCore }
func (noCore) Write(string, []byte) error                            { return ErrNoCore }
func (noCore) SendKeys(string, []ptyhost.Item) error                 { return ErrNoCore }
func (noCore) Paste(string, string) error                            { return ErrNoCore }
func (noCore) Submit(string, string) error                           { return ErrNoCore }
func (noCore) Resize(string, uint16, uint16) error                   { return ErrNoCore }
func (noCore) Remove(string) error                                   { return ErrNoCore }
func (noCore) Log(string) (runs.Output, error)                       { return runs.Output{}, ErrNoCore }
func (noCore) Watch(string) error                                    { return ErrNoCore }
func (noCore) Screen(string) (Screen, error)                         { return nil, ErrNoCore }
func (noCore) Metrics() runs.Metrics                                 { return runs.Metrics{} }
func (noCore) Shutdown(context.Context) error                        { return nil }
func (noCore) Trees(...string) (map[string][]reaper.TreeProc, error) { return nil, ErrNoCore }
func (noCore) Reconcile(context.Context) ([]runs.Decision, error)    { return nil, ErrNoCore }

package ui

import (
	"context"

	"corral/ptyhost/screen"
	"corral/runs/api"
)

// noCore stands in for a missing Core: every call fails with ErrNoCore, so a model
// built only to check keys can never dereference nil.
type noCore struct{}

func (noCore) Invoke(context.Context, api.Operation, any) (any, error) { return nil, ErrNoCore }
func (noCore) Watch(string) error                                      { return ErrNoCore }
func (noCore) Screen(string) (screen.View, error)                      { return nil, ErrNoCore }
func (noCore) Viewer() string                                          { return "" }

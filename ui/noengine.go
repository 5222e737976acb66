package ui

import (
	"context"

	"corral/ptyhost/screen"
	"corral/runs/api"
)

// noEngine stands in for a missing Engine: every call fails with ErrNoEngine, so a model
// built only to check keys can never dereference nil.
type noEngine struct{}

func (noEngine) Invoke(context.Context, api.Operation, any) (any, error) { return nil, ErrNoEngine }
func (noEngine) Watch(string) error                                      { return ErrNoEngine }
func (noEngine) Screen(string) (screen.View, error)                      { return nil, ErrNoEngine }
func (noEngine) Viewer() string                                          { return "" }

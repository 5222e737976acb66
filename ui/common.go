package ui

import (
	"time"

	"corral/ui/common"
)

// Common is what every component reads and none changes: the styles and the clock
// (package common), and the whole KeyMap, whose parts the components with keys of
// their own are given. The root builds it once in New and passes the pointer down.
type Common struct {
	*common.Common
	Keys KeyMap
}

// newCommon builds the Common of a root model.
func newCommon(keys KeyMap, now func() time.Time) *Common {
	return &Common{Common: common.New(now), Keys: keys}
}

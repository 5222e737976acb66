package ui

import (
	"corral/ui/common"
)

// An ended run's badge and its style live in ui/common, which every pane reads (the
// terminal pane's title too).
var (
	badge      = common.Badge
	badgeStyle = common.BadgeStyle
)

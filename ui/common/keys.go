package common

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// Bind is a binding of keys with its help: the keys as help shows them, and desc.
func Bind(desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(HelpKeys(keys), desc))
}

// HelpKeys is how a binding's keys read in help: "↑/k".
func HelpKeys(keys []string) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		switch k {
		case "up":
			k = "↑"
		case "down":
			k = "↓"
		case "left":
			k = "←"
		case "right":
			k = "→"
		}
		names[i] = k
	}
	return strings.Join(names, "/")
}

// FirstKey is a binding's first key, for titles too narrow for them all.
func FirstKey(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return ks[0]
	}
	return ""
}

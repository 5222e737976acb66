package config

import (
	"strings"
	"testing"
)

// [web]: listen and port, with the defaults filled in; a mistake names the file and
// its line.
func TestWebTable(t *testing.T) {
	f, err := Parse("corral.toml", []byte("[web]\nlisten = \"100.64.0.7\"\nport = 8080\n"))
	if err != nil || f.Web.Addr() != "100.64.0.7:8080" || f.Web.Line != 1 {
		t.Fatalf("[web]: %+v %v", f.Web, err)
	}
	if got := (Web{}).Addr(); got != "127.0.0.1:7457" {
		t.Errorf("default address %s", got)
	}
	if got := (Web{Listen: "::1"}).Addr(); got != "[::1]:7457" {
		t.Errorf("IPv6 address %s", got)
	}
	for doc, want := range map[string]string{
		"[web]\nport = 0\n":                "corral.toml:2",
		"[web]\n\nport = \"80\"\n":         "corral.toml:3",
		"[web]\nlisten = \"0.0.0.0:80\"\n": "without a port",
		"[web]\nlistn = \"localhost\"\n":   `did you mean "listen"`,
		"web = 1\n":                        "write it as a [web] table",
		"[webb]\n":                         "did you mean [web]",
	} {
		_, err := Parse("corral.toml", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", doc, err, want)
		}
	}
}

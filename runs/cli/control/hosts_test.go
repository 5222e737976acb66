package control

import (
	"errors"
	"strings"
	"testing"

	"corral/config"
	"corral/runs/client"
)

// A config's [[host]] entries become the hosts --host names; local is this
// machine's; an unknown name lists the names there are.
func TestFindHost(t *testing.T) {
	f, err := config.Parse("corral.toml", []byte("[[host]]\nname = \"alpha\"\nssh = \"me@a\"\n"+
		"[[host]]\nname = \"beta\"\nssh = \"b\"\ncorral = \"/opt/corral\"\nstate_dir = \"~/st\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	hs := Hosts(f)
	want := []client.Host{{Name: "alpha", SSH: "me@a"}, {Name: "beta", SSH: "b", Corral: "/opt/corral", StateDir: "~/st"}}
	if len(hs) != 2 || hs[0] != want[0] || hs[1] != want[1] {
		t.Fatalf("Hosts = %+v, want %+v", hs, want)
	}
	if h, err := FindHost(hs, "beta"); err != nil || h != want[1] {
		t.Errorf("beta: %+v %v", h, err)
	}
	if h, err := FindHost(hs, "local"); err != nil || h.Remote() || h.Name != "local" {
		t.Errorf("local: %+v %v", h, err)
	}
	_, err = FindHost(hs, "alpah")
	if !errors.Is(err, ErrUnknownHost) || err.Error() !=
		`unknown host "alpah": the hosts are local, alpha, beta ([[host]] in the config); did you mean "alpha"?` {
		t.Errorf("unknown: %v", err)
	}
	if _, err := FindHost(nil, "gpu"); err == nil || !strings.Contains(err.Error(), "the config has no [[host]]") {
		t.Errorf("no hosts: %v", err)
	}
}

package config

import (
	"slices"
	"strings"
	"testing"
)

const servicesDoc = `[[run]]
name = "db"
cmd = "postgres"

[[run]]
name = "migrate"
cmd = "make migrate"
depends_on = { db = "started" }

[[run]]
name = "api"
cmd = "./api"
depends_on = { db = "started", migrate = "succeeded" }
on_dependency_lost = "restart"

[[run]]
name = "watch"
cmd = "make watch"
depends_on = ["api"]
`

func TestDependsOnParsed(t *testing.T) {
	f, err := Parse("corral.toml", []byte(servicesDoc))
	if err != nil {
		t.Fatal(err)
	}
	api, watch := f.Runs[2], f.Runs[3]
	want := []Dependency{{"db", "started", 13}, {"migrate", "succeeded", 13}}
	if !slices.Equal(api.DependsOn, want) || api.OnDependencyLost != "restart" {
		t.Fatalf("api: %+v %q", api.DependsOn, api.OnDependencyLost)
	}
	if !slices.Equal(watch.DependsOn, []Dependency{{"api", "started", 19}}) {
		t.Fatalf("watch: %+v", watch.DependsOn)
	}
}

func TestDependsOnRefused(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"cycle", `[[run]]
name = "a"
cmd = "x"
depends_on = { b = "started" }
[[run]]
name = "b"
cmd = "x"
depends_on = { c = "ended" }
[[run]]
name = "c"
cmd = "x"
depends_on = { a = "succeeded" }
`, `corral.toml:12: run "c": key "depends_on": a cycle: a → b → c → a`},
		{"unknown", `[[run]]
name = "api"
cmd = "x"
depends_on = { migrate = "succeeded" }
[[run]]
name = "migrat"
cmd = "x"
`, `corral.toml:4: run "api": key "depends_on": no run is named "migrate" (did you mean "migrat"?)`},
		{"itself", "[[run]]\nname = \"a\"\ncmd = \"x\"\ndepends_on = [\"a\"]\n",
			`corral.toml:4: run "a": key "depends_on": a cannot wait for itself`},
		{"condition", "[[run]]\nname = \"a\"\ncmd = \"x\"\n[[run]]\nname = \"b\"\ncmd = \"x\"\ndepends_on = { a = \"healthy\" }\n",
			`corral.toml:7: run "b": key "depends_on": a: unknown condition "healthy" (want "started" or "ready" or "succeeded" or "ended")`},
		{"ready without probe", "[[run]]\nname = \"a\"\ncmd = \"x\"\n[[run]]\nname = \"b\"\ncmd = \"x\"\ndepends_on = { a = \"ready\" }\n",
			`corral.toml:7: run "b": key "depends_on": a = "ready" can never hold: run "a" has no readiness probe`},
		{"succeeded of always", "[[run]]\nname = \"a\"\ncmd = \"x\"\nrestart = \"always\"\n[[run]]\nname = \"b\"\ncmd = \"x\"\ndepends_on = { a = \"succeeded\" }\n",
			`corral.toml:8: run "b": key "depends_on": a = "succeeded" can never hold: run "a" restarts always`},
		{"lost", "[[run]]\nname = \"a\"\ncmd = \"x\"\non_dependency_lost = \"kill\"\n",
			`corral.toml:4: run "a": key "on_dependency_lost": want "restart"`},
		{"not a table", "[[run]]\nname = \"a\"\ncmd = \"x\"\ndepends_on = \"b\"\n",
			`corral.toml:4: run "a": key "depends_on": want a table of run names and conditions`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("corral.toml", []byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestStartOrder(t *testing.T) {
	es := []RunEntry{
		{Name: "watch", Autostart: true, DependsOn: []Dependency{{Name: "api"}}},
		{Name: "api", Autostart: true, DependsOn: []Dependency{{Name: "db"}, {Name: "migrate"}}},
		{Name: "migrate", DependsOn: []Dependency{{Name: "db"}}},
		{Name: "db"},
		{Name: "tool"},
	}
	var got []string
	for _, e := range StartOrder(es) {
		s := e.Name
		if e.Autostart {
			s += "*"
		}
		got = append(got, s)
	}
	if want := []string{"db*", "migrate*", "api*", "watch*", "tool"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func TestDependsOnInEffective(t *testing.T) {
	f, err := Parse("corral.toml", []byte(servicesDoc))
	if err != nil {
		t.Fatal(err)
	}
	out := f.Effective(Default())
	for _, want := range []string{`depends_on = { db = "started", migrate = "succeeded" }`, `on_dependency_lost = "restart"`,
		`depends_on = { api = "started" }`} {
		if !strings.Contains(out, want) {
			t.Errorf("effective config without %s:\n%s", want, out)
		}
	}
	if _, err := Parse("again.toml", []byte(out)); err != nil {
		t.Fatalf("the effective config does not parse: %v", err)
	}
}

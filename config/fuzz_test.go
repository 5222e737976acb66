package config

import "testing"

// FuzzParse: no input panics the parsers, and whatever Parse accepts survives a
// trip through Effective unchanged.
func FuzzParse(f *testing.F) {
	seeds := []string{
		fullExample,
		"",
		"[[run]]\nname = \"a\"\nargv = [\n\"x\",\n]\n[run.env]\nA = \"1\"\n",
		"[defaults]\ngrace = \"5s\"\ngrace = \"6s\"\n",
		"[keys]\nx = [\"a\", 1]\n",
		"[[run]]\nname = 'é'\ncmd = \"\"\"\nmulti\nline\"\"\"\ncols = 0x10\nrows = 1_0\n",
		"[run]\n", "a = {b = {c = [[]]}}", "[[run]]\nenv.A.B = 1\n",
		"web: rails s\n# comment\nbad line\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseProcfile("Procfile", data)
		file, err := Parse("corral.toml", data)
		if err != nil {
			return
		}
		checkRoundTrip(t, file)
	})
}

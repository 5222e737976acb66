package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"corral/runs"
)

// Every operation is named once: in its declaration. The code that serves and calls
// them (the server, the clients, the CLI verbs, the UI's commands) names them only
// through the declared values, so a rename is one edit and a typo does not compile.
// (A flag that happens to share a verb's name, --wait, is a flag.)
func TestVerbNamesWrittenOnce(t *testing.T) {
	files := []string{"../../ui/cmds.go"}
	for _, dir := range []string{".", "../server", "../client", "../control"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		files = append(files, fs...)
	}
	names := map[string]bool{}
	for _, n := range Names() {
		names[strconv.Quote(n)] = true
	}
	seen := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		for _, lit := range stringLiterals(t, f) {
			if names[lit.text] && !flagDefinition.MatchString(lit.line) {
				seen[lit.text] = append(seen[lit.text], fmt.Sprintf("%s:%d", f, lit.n))
			}
		}
	}
	for _, n := range Names() {
		q := strconv.Quote(n)
		if got := seen[q]; len(got) != 1 || !strings.HasPrefix(got[0], "verbs") {
			t.Errorf("%s is written at %v, want only in its declaration (runs/api/verbs*.go)", q, got)
		}
	}
}

var flagDefinition = regexp.MustCompile(`\bfs\.\w+Var\(`)

type literal struct {
	text, line string
	n          int
}

// stringLiterals are the file's interpreted string literals (struct tags and comments
// are not), each with its line.
func stringLiterals(t *testing.T, path string) []literal {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
	var out []literal
	for {
		pos, tok, text := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.STRING && strings.HasPrefix(text, `"`) {
			n := fset.Position(pos).Line
			out = append(out, literal{text: text, line: lines[n-1], n: n})
		}
	}
}

// An operation applied in process answers as it would over the socket: the same
// handler, arguments of the declared type, and a wrong type is an error, not a panic.
func TestApplyChecksTheArgumentType(t *testing.T) {
	if _, err := Kill.Apply(context.Background(), nil, WriteArgs{ID: "r1"}); err == nil {
		t.Fatal("kill applied with write's arguments: no error")
	}
	if _, err := Hello.Apply(context.Background(), nil, HelloArgs{}); !isCode(err, CodeUnknown) {
		t.Fatalf("hello in process: %v, want %s", err, CodeUnknown)
	}
}

// Bad arguments are a bad request with the decoder's reason.
func TestServeDecodesArguments(t *testing.T) {
	_, err := Kill.Serve(context.Background(), nil, json.RawMessage(`{"id":7}`))
	if !isCode(err, CodeBadRequest) {
		t.Fatalf("kill with a numeric id: %v", err)
	}
}

// A supervisor's errors keep their kind through AsError and back.
func TestErrorKinds(t *testing.T) {
	for _, want := range []error{runs.ErrUnknownRun, runs.ErrNotRunning} {
		e := AsError(errors.Join(errors.New("ctx"), want))
		var back error = e
		if !errors.Is(back, want) {
			t.Errorf("%v: code %s does not map back", want, e.Code)
		}
	}
	if e := AsError(errors.New("other")); e.Code != CodeFailed {
		t.Errorf("other error: %s", e.Code)
	}
}

func isCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

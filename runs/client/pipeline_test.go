package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"corral/ptyhost/keys"
	"corral/runs/api"
)

// slowServer is a server that answers nothing until it holds `hold` requests after
// its hello, then answers each in the order it came, a little apart; a request
// whose text ends in "!" is refused. It records the texts of the input it took.
type slowServer struct {
	hold int

	mu   sync.Mutex
	took []string
}

// listen serves s on a socket in a temp dir and returns a dial for it.
func (s *slowServer) listen(t *testing.T) func() (*Client, error) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
			go s.conn(c)
		}
	}()
	return func() (*Client, error) {
		c, err := net.Dial("unix", sock)
		if err != nil {
			return nil, err
		}
		return NewClient(c)
	}
}

func (s *slowServer) conn(c net.Conn) {
	r := bufio.NewReader(c)
	enc := json.NewEncoder(c)
	var held []api.Request
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return
		}
		var req api.Request
		if json.Unmarshal(line, &req) != nil {
			return
		}
		if req.Verb == api.Hello.Name() {
			b, _ := json.Marshal(api.HelloReply{Version: api.Version})
			enc.Encode(api.Response{V: api.Version, Result: b})
			continue
		}
		var a api.InputArgs
		json.Unmarshal(req.Args, &a)
		text := a.Items[0].Text
		s.mu.Lock()
		s.took = append(s.took, text)
		s.mu.Unlock()
		held = append(held, req)
		if len(held) < s.hold {
			continue
		}
		for _, h := range held {
			time.Sleep(time.Millisecond)
			var a api.InputArgs
			json.Unmarshal(h.Args, &a)
			resp := api.Response{V: api.Version, Result: json.RawMessage(`{}`)}
			if t := a.Items[0].Text; strings.HasSuffix(t, "!") {
				resp = api.Response{V: api.Version, Error: api.Errorf(api.CodeNotRunning, "refused %s", t)}
			}
			if enc.Encode(resp) != nil {
				return
			}
		}
		held = held[:0]
	}
}

func textInput(text string) api.InputArgs {
	return api.InputArgs{ID: "r1", Items: []keys.Item{{Text: text}}}
}

// Input calls begun on a pipelined lane go out at once, before the replies to the
// ones before them: a server that answers nothing until it holds 50 requests gets
// them all, in order, none lost or twice, and each call gets its own reply (an
// error where its request was refused).
func TestPipelinedInputInOrderUnderASlowServer(t *testing.T) {
	const n = 200
	s := &slowServer{hold: 50}
	l := &lane{dial: s.listen(t), pipelined: true}
	if err := l.open(); err != nil {
		t.Fatal(err)
	}
	defer l.c.Load().Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var finishes []func(context.Context) (any, error)
	var want []string
	for i := range n {
		text := fmt.Sprintf("k%d", i)
		if i%7 == 3 {
			text += "!"
		}
		want = append(want, text)
		f, err := l.begin(ctx, api.Input, textInput(text))
		if err != nil {
			t.Fatalf("begin %s: %v", text, err)
		}
		finishes = append(finishes, f)
	}
	for i, f := range finishes {
		_, err := f(ctx)
		refused := strings.HasSuffix(want[i], "!")
		var ae *api.Error
		switch {
		case refused && (!errors.As(err, &ae) || ae.Message != "refused "+want[i]):
			t.Errorf("call %d (%s): %v, want its own refusal", i, want[i], err)
		case !refused && err != nil:
			t.Errorf("call %d (%s): %v, want none", i, want[i], err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if got := strings.Join(s.took, " "); got != strings.Join(want, " ") {
		t.Errorf("the server took\n%s\nwant\n%s", got, strings.Join(want, " "))
	}
}

// Calls on a pipelined lane from several goroutines at once each get their own reply.
func TestPipelinedLaneConcurrentCallsGetTheirOwnReplies(t *testing.T) {
	s := &slowServer{hold: 1}
	l := &lane{dial: s.listen(t), pipelined: true}
	if err := l.open(); err != nil {
		t.Fatal(err)
	}
	defer l.c.Load().Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				text := fmt.Sprintf("g%di%d", g, i)
				if i%3 == 0 {
					text += "!"
				}
				_, err := l.invoke(context.Background(), api.Input, textInput(text))
				var ae *api.Error
				if strings.HasSuffix(text, "!") != (errors.As(err, &ae) && ae.Message == "refused "+text) {
					t.Errorf("%s: %v", text, err)
				}
			}
		})
	}
	wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.took) != 200 {
		t.Errorf("the server took %d requests, want 200", len(s.took))
	}
}

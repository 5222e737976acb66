// Package client reaches a state dir's server (package server) over its socket, or a
// server on another host through ssh and corral proxy: Client is one connection that
// calls operations (api.Op.Call) in order; Remote is a whole server as an attached UI
// uses it — the operations on their lanes, the stream's events, and screens kept up
// to date by its frames.
package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"corral/runs/api"
	"corral/runs/keeper"
)

// ErrNoServer: nothing listens on the state dir's socket.
var ErrNoServer = errors.New("no corral server is running for this state dir")

// KeeperDown is what a client finds when no server answers but the state dir's
// keeper lives: the runs are kept and the keeper starts servers, so "no server is
// running" would be false; it says what is true. errors.Is(err, ErrNoServer) holds,
// for the callers that start a server (the keeper's own comes first) or read the
// records themselves.
type KeeperDown struct{ keeper.Status }

func (e *KeeperDown) Error() string { return e.Status.Down() }

// Is makes a KeeperDown an ErrNoServer.
func (e *KeeperDown) Is(target error) bool { return target == ErrNoServer }

// noServer is ErrNoServer for the state dir dir, or KeeperDown when its keeper lives.
func noServer(dir string) error {
	if st, ok := keeper.Find(dir); ok {
		return &KeeperDown{st}
	}
	return ErrNoServer
}

// ErrUnreachable: ssh could not reach a host (it exited 255: no route, refused,
// not allowed in).
var ErrUnreachable = errors.New("host unreachable")

// ErrNoCorral: ssh reached a host, whose shell could not run corral there.
var ErrNoCorral = errors.New("corral not found on the host")

// ErrNotProtocol: what came back on the connection is not corral's protocol (a line
// that is no response, or one over the size bound): a login script that prints to
// stdout, a wrong program at the far end, a hostile one. The connection is closed.
var ErrNotProtocol = errors.New("the reply is not corral's protocol")

// helloMax bounds the hello's reply line, a few hundred bytes from a real server: a
// far end that answers anything else is found out after this much, not after
// api.MaxMessage.
const helloMax = 64 << 10

// Client is one connection to a server. Its calls are answered in order. Calls from
// several goroutines, or begun with Begin, are in flight together, each reading its
// own reply in turn; one cut short leaves the client Broken for those after it too.
type Client struct {
	conn  io.ReadWriteCloser
	r     *bufio.Reader
	enc   *json.Encoder
	pid   int            // the server's process, when the kernel says (answer.go); 0 if not
	max   int            // the longest reply line read (0: api.MaxMessage and some)
	Hello api.HelloReply // what the server said of itself

	bmu    sync.Mutex
	broken error // set when a call was cut short: its reply may still come

	// Calls begun (Begin) and not yet finished: requests are written one at a time
	// (wmu), each taking the next sequence number, and their replies are read in that
	// order (rmu, turn: the sequence number whose reply is read next).
	wmu, rmu   sync.Mutex
	turnCond   *sync.Cond
	sent, turn uint64
}

var _ api.Caller = (*Client)(nil)

// Dial connects to the state dir's server and says hello. It is ErrNoServer when no
// server listens there (no socket, or a stale one), ErrForeign when the socket is
// another user's, and ErrVersion when the server speaks another protocol version.
func Dial(dir string) (*Client, error) {
	conn, err := DialSocket(dir)
	if err != nil {
		return nil, err
	}
	c, err := NewClient(conn)
	if err != nil && hungUp(err) {
		// The socket took the connection but its server was ending: one killed with
		// SIGKILL keeps its listener until its last thread has exited (its pid already
		// reads as a zombie), and one shutting down closes what it has not answered.
		// For the caller that is no server, and Connect starts a new one.
		return nil, fmt.Errorf("%w (the one there ended as it was greeted: %v)", ErrNoServer, err)
	}
	return c, err
}

// hungUp reports whether a call failed because the far end closed the connection.
func hungUp(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// DialSocket connects to the state dir's socket and nothing more (corral proxy
// bridges such a connection to a client elsewhere, which says hello itself).
func DialSocket(dir string) (net.Conn, error) {
	sock := filepath.Join(dir, api.SocketName)
	if err := socketOwner(sock); err != nil {
		if err == ErrNoServer {
			err = noServer(dir)
		}
		return nil, err
	}
	conn, err := (&net.Dialer{Timeout: api.HelloBudget}).Dial("unix", sock)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return nil, noServer(dir)
		}
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// NewClient says hello over conn, a connection to a server however it is reached
// (its socket, or corral proxy at the far end of ssh).
func NewClient(conn io.ReadWriteCloser) (*Client, error) {
	return newClient(context.Background(), conn)
}

// newClient is NewClient, its hello within ctx (without a deadline: the hello's
// budget) and its reply within helloMax.
func newClient(ctx context.Context, conn io.ReadWriteCloser) (*Client, error) {
	c := &Client{conn: conn, r: bufio.NewReaderSize(conn, 64<<10), enc: json.NewEncoder(conn), pid: serverPID(conn), max: helloMax}
	var err error
	c.Hello, err = api.Hello.Call(ctx, c, api.HelloArgs{Version: api.Version, Binary: api.Binary})
	c.max = 0
	if err != nil {
		conn.Close()
		var pe *api.Error
		if errors.As(err, &pe) && pe.Code == api.CodeVersion {
			srv := api.Side{Protocol: pe.Protocol, Binary: pe.Binary, PID: pe.PID}
			if srv.PID == 0 {
				srv.PID = c.pid // a server older than the field: the kernel says
			}
			return nil, fmt.Errorf("%w: %s", api.ErrVersion, api.Mismatch(srv, api.Side{Protocol: api.Version, Binary: api.Binary}))
		}
		return nil, err
	}
	return c, nil
}

// Connect is Dial, starting a server with start first when none is running, and
// waiting up to limit for it to listen. Two clients that start one at once are fine:
// the server lock lets one listen, and the other's server exits with ErrRunning.
func Connect(dir string, start func() error, limit time.Duration) (*Client, error) {
	c, err := Dial(dir)
	if !errors.Is(err, ErrNoServer) {
		return c, err
	}
	// A live keeper starts the server itself: it is waited for, unless the keeper says
	// none comes up; with none (or once it has gone), start starts one.
	var kd *KeeperDown
	started := false
	deadline := time.Now().Add(limit)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		switch {
		case errors.As(err, &kd):
			if kd.Failures >= keeper.FailLimit {
				return nil, err
			}
		case !started:
			started = true
			if err := start(); err != nil {
				return nil, fmt.Errorf("start the server: %w", err)
			}
		}
		c, err = Dial(dir)
		if !errors.Is(err, ErrNoServer) || time.Now().After(deadline) {
			return c, err
		}
		// The server is another process that tells us nothing until it listens: the
		// socket is the condition, re-checked with a short, growing delay.
		time.Sleep(delay)
	}
}

// Close hangs up.
func (c *Client) Close() error { return c.conn.Close() }

// Invoke calls op with args and returns its reply, typed as the op's. Unless ctx has
// a deadline of its own, the call has op's budget (api.Operation.Budget).
func (c *Client) Invoke(ctx context.Context, op api.Operation, args any) (any, error) {
	var raw json.RawMessage
	if err := c.call(ctx, op.Name(), args, &raw, op.Budget(args)); err != nil {
		return nil, err
	}
	return op.DecodeReply(raw)
}

// Call sends one request and decodes its result into result (which may be nil). A
// failed call is an *api.Error with the server's code. A ctx that ends first cuts
// the call short and leaves the client unusable (Broken): the reply may still come.
// Without a deadline in ctx it waits up to api.DefaultBudget. Either way a server
// found stopped or gone while the call waits ends it with ErrNoAnswer.
func (c *Client) Call(ctx context.Context, verb string, args, result any) error {
	return c.call(ctx, verb, args, result, api.DefaultBudget)
}

// call is Call within budget (0: none), unless ctx has a deadline of its own.
func (c *Client) call(ctx context.Context, verb string, args, result any, budget time.Duration) error {
	finish, err := c.begin(ctx, verb, args, budget)
	if err != nil {
		return err
	}
	return finish(ctx, result)
}

// Begin sends op's request with args and returns at once, before its reply: finish
// waits for the reply (within ctx and op's budget, as Invoke) and decodes it. Calls
// begun one after another are in flight together, answered in the order they were
// sent (the server answers a connection's requests in order), so a key typed while
// the previous one's reply is on its way is not held for it. finish must be called,
// once, for every Begin that returned no error: a reply is read only after those of
// the calls begun before it.
func (c *Client) Begin(ctx context.Context, op api.Operation, args any) (finish func(context.Context) (any, error), err error) {
	budget := op.Budget(args)
	done, err := c.begin(ctx, op.Name(), args, budget)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) {
		var raw json.RawMessage
		if err := done(ctx, &raw); err != nil {
			return nil, err
		}
		return op.DecodeReply(raw)
	}, nil
}

// begin writes one request within budget and returns what reads its reply.
func (c *Client) begin(ctx context.Context, verb string, args any, budget time.Duration) (func(context.Context, any) error, error) {
	if err := c.Broken(); err != nil {
		return nil, err
	}
	c.wmu.Lock()
	err := c.guard(ctx, verb, budget, func() error { return c.send(verb, args) })
	seq := c.sent
	if err == nil {
		c.sent++
	}
	c.wmu.Unlock()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, result any) error {
		c.awaitTurn(seq)
		defer c.nextTurn()
		if err := c.Broken(); err != nil {
			// An earlier call was cut short: its reply, not this one's, may come next.
			return err
		}
		return c.guard(ctx, verb, budget, func() error { return c.receive(verb, result) })
	}, nil
}

// awaitTurn waits until the replies to every request sent before seq have been read.
func (c *Client) awaitTurn(seq uint64) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	if c.turnCond == nil {
		c.turnCond = sync.NewCond(&c.rmu)
	}
	for c.turn != seq {
		c.turnCond.Wait()
	}
}

// nextTurn passes the reading to the next request's reply.
func (c *Client) nextTurn() {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	c.turn++
	if c.turnCond != nil {
		c.turnCond.Broadcast()
	}
}

// guard runs one half of a call (writing its request, or reading its reply) within
// budget (0: none) unless ctx has a deadline of its own, the server watched meanwhile;
// a ctx that ends first cuts it short and leaves the client Broken.
func (c *Client) guard(ctx context.Context, verb string, budget time.Duration, f func() error) error {
	if _, ok := ctx.Deadline(); ok {
		budget = 0
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer c.watch(ctx, cancel, verb, budget)()
	stop := context.AfterFunc(ctx, c.interrupt)
	err := f()
	if _, local := c.conn.(net.Conn); local && err != nil && hungUp(err) {
		// The server closed this connection (a full server closes idle ones): it
		// is done, and a lane dials a new one for the next call. (Over ssh a new
		// connection is a new corral proxy there, which is not for a lane to start.)
		c.setBroken(err)
	}
	if !stop() && ctx.Err() != nil {
		broken := fmt.Errorf("%s: %w", verb, context.Cause(ctx))
		c.setBroken(broken)
		if err != nil {
			err = broken
		}
	}
	return err
}

func (c *Client) setBroken(err error) {
	c.bmu.Lock()
	defer c.bmu.Unlock()
	c.broken = err
}

// parting is the error a server sent before it closed the connection (one that
// turns a client away says why, e.g. that it is busy), or nil.
func (c *Client) parting(sendErr error) *api.Error {
	if errors.Is(sendErr, os.ErrDeadlineExceeded) {
		return nil // the call was cut short (interrupt), not turned away
	}
	if d, ok := c.conn.(interface{ SetReadDeadline(time.Time) error }); ok {
		d.SetReadDeadline(time.Now().Add(time.Second))
		defer d.SetReadDeadline(time.Time{})
	} else {
		return nil // a pipe to ssh: a read could wait without bound
	}
	line, err := api.ReadLine(c.r, api.MaxMessage+1024)
	if err != nil {
		return nil
	}
	var resp api.Response
	if json.Unmarshal(line, &resp) != nil {
		return nil
	}
	return resp.Error
}

// Broken reports the cancelled call, or the server's hang-up, that left the client
// unusable (nil if none).
func (c *Client) Broken() error {
	c.bmu.Lock()
	defer c.bmu.Unlock()
	return c.broken
}

// interrupt makes the call in flight return: a socket's deadline passes at once; a
// pipe to ssh can only be closed.
func (c *Client) interrupt() {
	switch conn := c.conn.(type) {
	case interface{ SetDeadline(time.Time) error }:
		conn.SetDeadline(time.Unix(1, 0))
	case interface{ Abort() }: // ssh: ended at once, not waited for
		conn.Abort()
	default:
		c.conn.Close()
	}
}

// send writes one request. A server that closed the connection may have said why
// first (parting); that is read only when no reply is awaited (c.wmu held).
func (c *Client) send(verb string, args any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return err
	}
	if err := c.enc.Encode(api.Request{V: api.Version, Verb: verb, Args: raw}); err != nil {
		if c.awaited() == 0 {
			if said := c.parting(err); said != nil {
				return said
			}
		}
		return fmt.Errorf("send %s: %w", verb, err)
	}
	return nil
}

// awaited is how many requests sent have replies not yet read, c.wmu held.
func (c *Client) awaited() uint64 {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	return c.sent - c.turn
}

// receive reads one response into result (which may be nil).
func (c *Client) receive(verb string, result any) error {
	limit := api.MaxMessage + 1024
	if c.max > 0 {
		limit = c.max
	}
	line, err := api.ReadLine(c.r, limit)
	if errors.Is(err, api.ErrTooLarge) {
		return fmt.Errorf("%s: %w: a line over %d bytes", verb, ErrNotProtocol, limit)
	}
	if err != nil {
		return fmt.Errorf("%s: the server hung up: %w", verb, err)
	}
	var resp api.Response
	if err := json.Unmarshal(line, &resp); err != nil || resp.V == 0 {
		return fmt.Errorf("%s: %w: it began %s", verb, ErrNotProtocol, Excerpt(line))
	}
	var body []byte
	if resp.Body != 0 {
		// The bytes after the line are the reply's too: read whoever asked for them,
		// or the next reply would begin inside them.
		if resp.Body < 0 || resp.Body > api.MaxBody {
			return fmt.Errorf("%s: %w: a body of %d bytes", verb, ErrNotProtocol, resp.Body)
		}
		body = make([]byte, resp.Body)
		if _, err := io.ReadFull(c.r, body); err != nil {
			return fmt.Errorf("%s: the server hung up: %w", verb, err)
		}
	}
	if resp.Error != nil {
		if resp.Error.Code == api.CodeVersion && resp.Error.Protocol == 0 {
			resp.Error.Protocol = resp.V // a server older than the field says it in the envelope
		}
		return resp.Error
	}
	if result == nil || len(resp.Result) == 0 {
		return nil
	}
	if raw, ok := result.(*json.RawMessage); ok {
		// Invoke's: the result is its own copy, checked with the line; taking it as it
		// is spares a scan of the reply (at a thousand runs a list is over a megabyte).
		*raw = resp.Result
		return nil
	}
	if err := json.Unmarshal(resp.Result, result); err != nil {
		return err
	}
	if sink, ok := result.(api.BodySink); ok && body != nil {
		sink.SetReplyBody(body)
	}
	return nil
}

// Excerpt is the start of b, quoted, for a message about what came back: control
// characters escaped, cut at 40 bytes.
func Excerpt(b []byte) string {
	const n = 40
	if len(b) > n {
		return strconv.Quote(string(b[:n])) + "…"
	}
	return strconv.Quote(string(b))
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"corral/config"
	"corral/runs/agentstate"
	"corral/runs/cli/control"
	"corral/runs/web"
	"corral/ui/launch"
)

// cmdWeb is corral web: the page for browsers, a client of the state dir's server.
func cmdWeb(args []string) int {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory")
	listen := fs.String("listen", "", fmt.Sprintf("address to listen on, HOST:PORT (default [web] listen and port of the config, else %s:%d)",
		config.DefaultWebListen, config.DefaultWebPort))
	readOnly := fs.Bool("read-only", false, "show the runs, send nothing to any of them")
	tokenFile := fs.String("token-file", "", "the access token, a file of yours (mode 600; default: the state dir's web.token, made when missing)")
	exposed := fs.Bool("exposed", false, "listen on an address other machines reach with the state dir's token (without --token-file)")
	hosts := fs.String("host", "", "names, comma-separated, a proxy in front forwards in the Host header (tailscale serve's); others are refused on loopback")
	var dests []string
	fs.Func("ssh", "serve the runs of the server on HOST too, through ssh HOST corral proxy; repeatable, as\n"+
		"corral attach's (local names this machine's; default: this machine's and every [[host]] of the config)", func(v string) error {
		dests = append(dests, v)
		return nil
	})
	cert := fs.String("cert", "", "serve HTTPS with this certificate (PEM; with --key)")
	key := fs.String("key", "", "the certificate's private key (PEM)")
	if code, ok := parseCommand("web", fs, args, ""); !ok {
		return code
	}
	if (*cert == "") != (*key == "") {
		fmt.Fprintln(os.Stderr, "corral web: --cert and --key go together")
		return exitUsage
	}
	addr, code := webAddr(*listen)
	if code != 0 {
		return code
	}
	if err := web.CheckListen(addr, *tokenFile != "", *exposed); err != nil {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return exitUsage
	}
	dir, err := config.ResolveStateDir(*stateDir, config.Default().StateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return exitFailure
	}
	path := *tokenFile
	if path == "" {
		path = filepath.Join(dir, web.TokenFile)
	}
	token, err := web.LoadToken(path, *tokenFile == "")
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return exitFailure
	}
	configured, err := control.UserHosts()
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return exitUsage
	}
	t, err := launch.AttachTarget(dir, *stateDir, dests, configured)
	if err != nil {
		return uiExit(err)
	}
	var names []string
	for _, h := range strings.Split(*hosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			names = append(names, h)
		}
	}
	return serveWeb(t, addr, token, *cert, *key, *readOnly, names)
}

// webAddr is --listen, else the config's [web], else the default.
func webAddr(listen string) (string, int) {
	if listen != "" {
		if _, _, err := net.SplitHostPort(listen); err != nil {
			fmt.Fprintf(os.Stderr, "corral web: --listen %s: want HOST:PORT (%v)\n", listen, err)
			return "", exitUsage
		}
		return listen, 0
	}
	f, err := config.User()
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return "", exitUsage
	}
	return f.Web.Addr(), 0
}

// serveWeb attaches to the target's server, or servers (as corral attach does), and
// serves the page until a signal or the servers' end.
func serveWeb(t launch.Target, addr, token, cert, key string, readOnly bool, hosts []string) int {
	rem, err := launch.Open(t)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return exitFailure
	}
	defer rem.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return exitFailure
	}
	agents, errs := agentstate.Load(agentstate.UserDir())
	for _, e := range errs {
		warn(e.Error())
	}
	s := web.New(rem, web.Options{Token: token, ReadOnly: readOnly, TLS: cert != "", Agents: agents, Hosts: hosts})
	scheme := map[bool]string{true: "https", false: "http"}[cert != ""]
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	fmt.Printf("corral web: open %s://%s/login?token=%s\n", scheme, net.JoinHostPort(host, port), token)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := s.Serve(ctx, ln, cert, key); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(os.Stderr, "corral web: %v\n", err)
		return exitFailure
	}
	return 0
}

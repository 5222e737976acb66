module corral

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/hinshun/vt10x v0.0.0-20220301184237-5011da428d02
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

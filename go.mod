module corral

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// cookieName is the session cookie's name.
const cookieName = "corral_web"

// TokenFile is where the token is kept in the state dir.
const TokenFile = "web.token"

// LoadToken returns the token in path, made (32 random bytes, hex) and written 0600
// when the file does not exist yet, so a bookmark and a phone's cookie outlive a
// restart of corral web.
func LoadToken(path string, create bool) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			return "", fmt.Errorf("%w: %s is readable by others (mode %v): chmod 600 it", ErrToken, path, fi.Mode().Perm())
		}
		tok := strings.TrimSpace(string(b))
		if len(tok) < 16 {
			return "", fmt.Errorf("%w: %s holds fewer than 16 characters", ErrToken, path)
		}
		return tok, nil
	}
	if !os.IsNotExist(err) || !create {
		return "", fmt.Errorf("%w: %v", ErrToken, err)
	}
	var raw [32]byte
	rand.Read(raw[:])
	tok := hex.EncodeToString(raw[:])
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("%w: %v", ErrToken, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrToken, err)
	}
	_, err = f.WriteString(tok + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrToken, err)
	}
	return tok, nil
}

// CheckListen refuses an address other machines can reach unless a token of the
// user's own is given or the exposure is said to be meant.
func CheckListen(addr string, tokenFile bool, exposed bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %s: %v", addr, err)
	}
	if loopback(host) || tokenFile || exposed {
		return nil
	}
	return fmt.Errorf("listen %s: %w", addr, ErrExposed)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// auth checks requests: the token once, the session cookie made from it, the
// Origin of what changes something or streams.
type auth struct {
	token  string
	cookie string // HMAC of the token: the cookie never is the token itself
	secure bool   // served over TLS: the cookie is Secure
}

func newAuth(token string, secure bool) auth {
	if token == "" { // no token opens nothing: the cookie is one no login gives
		var raw [32]byte
		rand.Read(raw[:])
		return auth{cookie: hex.EncodeToString(raw[:]), secure: secure}
	}
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("corral web session"))
	return auth{token: token, cookie: hex.EncodeToString(m.Sum(nil)), secure: secure}
}

// login exchanges ?token= for the cookie and sends the browser on to the page
// without the token in its address (and so in its history).
func (a auth) login(w http.ResponseWriter, r *http.Request) {
	got := r.URL.Query().Get("token")
	if a.token == "" || subtle.ConstantTimeCompare([]byte(got), []byte(a.token)) != 1 {
		http.Error(w, "wrong or missing token: open the URL corral web printed (the token is in the state dir's "+TokenFile+")", http.StatusUnauthorized)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: a.cookie, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: a.secure, MaxAge: 400 * 24 * 3600})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// signedIn reports whether r carries the session cookie.
func (a auth) signedIn(r *http.Request) bool {
	c, err := r.Cookie(cookieName)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(a.cookie)) == 1
}

// sameOrigin reports whether r comes from the page itself. A POST carries Origin in
// every browser and must carry it here; a same-origin GET (the live channel) may
// not, and then the browser's Sec-Fetch-Site must not say it came from elsewhere.
func sameOrigin(r *http.Request, post bool) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		site := r.Header.Get("Sec-Fetch-Site")
		return !post && (site == "" || site == "same-origin" || site == "none")
	}
	u, err := url.Parse(o)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host == r.Host
}

// hostOK reports whether r names this server in its Host header. A request that
// reached a loopback address must name a loopback host or one of hosts (the names a
// proxy in front forwards, such as tailscale serve's): a foreign name there is a
// page whose DNS was rebound to 127.0.0.1, which would be same-origin to itself.
// An address other machines reach is reached by names Corral cannot know.
func hostOK(r *http.Request, hosts []string) bool {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil {
		return true
	}
	lhost, _, err := net.SplitHostPort(local.String())
	if err != nil || !loopback(lhost) {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if loopback(host) || strings.HasSuffix(host, ".localhost") { // browsers resolve *.localhost to loopback themselves
		return true
	}
	for _, h := range hosts {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

// hostGuard refuses every request whose Host is not this server's (see hostOK).
func hostGuard(h http.Handler, hosts []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostOK(r, hosts) {
			http.Error(w, "foreign Host: open the page by localhost or 127.0.0.1 (a proxy's name needs corral web --host NAME)", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// jsonBody reports whether a POST says it carries JSON: a form (text/plain,
// urlencoded, multipart) can be sent from any page without asking, JSON cannot.
func jsonBody(r *http.Request) bool {
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	return strings.EqualFold(strings.TrimSpace(ct), "application/json")
}

// guard wraps h: signed in, the right Origin, else one clear error.
func (a auth) guard(post bool, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case !a.signedIn(r):
			http.Error(w, "not signed in: open the URL corral web printed", http.StatusUnauthorized)
		case !sameOrigin(r, post):
			http.Error(w, "foreign origin", http.StatusForbidden)
		case post && !jsonBody(r):
			http.Error(w, "want Content-Type: application/json", http.StatusUnsupportedMediaType)
		default:
			h(w, r)
		}
	}
}

package control

import (
	"fmt"
	"strings"

	"corral/config"
	"corral/runs/client"
)

// Hosts are the [[host]] entries of f as the servers a client reaches, in file
// order; this machine's is not among them. A nil f has none.
func Hosts(f *config.File) []client.Host {
	if f == nil {
		return nil
	}
	hs := make([]client.Host, len(f.Hosts))
	for i, e := range f.Hosts {
		hs[i] = client.Host{Name: e.Name, SSH: e.SSH, Corral: e.Corral, StateDir: e.StateDir}
	}
	return hs
}

// UserHosts are the [[host]] entries of the config file found without a flag
// ($CORRAL_CONFIG, ./corral.toml, the user's), as the verbs and corral ls read them.
func UserHosts() ([]client.Host, error) {
	f, err := config.User()
	if err != nil {
		return nil, err
	}
	return Hosts(f), nil
}

// FindHost is the host name names among hosts: config.LocalHost is this machine's
// server (a Host with no SSH). An unknown name is an error that lists the names.
func FindHost(hosts []client.Host, name string) (client.Host, error) {
	if name == config.LocalHost {
		return client.Host{Name: config.LocalHost}, nil
	}
	names := []string{config.LocalHost}
	for _, h := range hosts {
		if h.Name == name {
			return h, nil
		}
		names = append(names, h.Name)
	}
	msg := fmt.Sprintf("the hosts are %s ([[host]] in the config)", strings.Join(names, ", "))
	if len(hosts) == 0 {
		msg = "the config has no [[host]], so the only host is " + config.LocalHost
	}
	if s := config.Closest(name, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return client.Host{}, fmt.Errorf("%w %q: %s", ErrUnknownHost, name, msg)
}

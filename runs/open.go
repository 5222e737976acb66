package runs

import (
	"path/filepath"

	"corral/config"
)

// Open opens the registry in the state dir (stateDir, else d's) and a supervisor that
// persists to it, detects escapes, renews its leases and keeps its logs in
// <state dir>/logs: what every command that starts runs opens. warn is told what the
// registry found wrong on opening (it goes on regardless).
func Open(d config.Defaults, stateDir string, warn func(string), extra ...Option) (*Supervisor, *Registry, error) {
	dir, err := config.ResolveStateDir(stateDir, d.StateDir)
	if err != nil {
		return nil, nil, err
	}
	reg, err := OpenRegistry(dir, d)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range reg.Warnings() {
		warn(w)
	}
	opts := append([]Option{WithDefaults(d), WithRegistry(reg), WithEscapeDetection(), WithCgroups(FindCgroups(d.CgroupRoot)),
		WithLogDir(filepath.Join(dir, "logs")), WithPolicy(Policy(d.ReconcilePolicy))}, extra...)
	sup, err := New(opts...)
	if err != nil {
		reg.Close()
		return nil, nil, err
	}
	return sup, reg, nil
}

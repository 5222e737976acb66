package runs

import (
	"encoding/json"
	"time"
)

// legacyRecord holds the camelCase keys records had before every key became snake_case.
// A user who upgrades Corral with runs alive must not lose them: an old record is read
// as it was written (its Spec's nanosecond durations too, spec_json.go) and is
// rewritten in the new names the next time it is saved.
type legacyRecord struct {
	RunID           *string    `json:"runId"`
	ExitCode        *int       `json:"exitCode"`
	CreatedAt       *time.Time `json:"createdAt"`
	UpdatedAt       *time.Time `json:"updatedAt"`
	LastOutputAt    *time.Time `json:"lastOutputAt"`
	OwnerInstanceID *string    `json:"ownerInstanceId"`
	LeaseEpoch      *uint64    `json:"leaseEpoch"`
	LeaseExpiresAt  *time.Time `json:"leaseExpiresAt"`
	CleanupMode     *string    `json:"cleanupMode"`
}

// UnmarshalJSON reads a record in the current names or the old ones.
func (r *Record) UnmarshalJSON(b []byte) error {
	type plain Record // without this method
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	var old legacyRecord
	if err := json.Unmarshal(b, &old); err != nil {
		return err
	}
	take(&r.ID, old.RunID)
	take(&r.CreatedAt, old.CreatedAt)
	take(&r.UpdatedAt, old.UpdatedAt)
	take(&r.LastOutputAt, old.LastOutputAt)
	take(&r.OwnerInstanceID, old.OwnerInstanceID)
	take(&r.LeaseEpoch, old.LeaseEpoch)
	take(&r.LeaseExpiresAt, old.LeaseExpiresAt)
	take(&r.CleanupMode, old.CleanupMode)
	if r.ExitCode == nil {
		r.ExitCode = old.ExitCode
	}
	return nil
}

// take sets *dst from an old key when the new key left it zero.
func take[T comparable](dst *T, old *T) {
	var zero T
	if old != nil && *dst == zero {
		*dst = *old
	}
}

package agent

import "time"

// APIVersion is the path prefix of this protocol version.
const APIVersion = "v1"

// Headers of the protocol.
const (
	HeaderLease     = "Lab-Session"
	HeaderRequestID = "Lab-Request-Id"
)

// MaxBody bounds every request body (413 beyond it).
const MaxBody = 64 << 10

// Health is GET /v1/health.
type Health struct {
	OK      bool   `json:"ok"`
	API     string `json:"api"`
	Version string `json:"version,omitempty"`
	Leased  bool   `json:"session"` // a driver holds the agent (its lease is live)
}

// ClockReading is GET /v1/clock: the agent's clock when the request was
// received and when the answer was sent, in Unix nanoseconds.
type ClockReading struct {
	Received int64 `json:"received"`
	Sent     int64 `json:"sent"`
}

// Description is GET /v1/describe.
type Description struct {
	Host   HostV1       `json:"host"`
	Target TargetInfoV1 `json:"target"`
}

// LeaseRequest is POST /v1/session.
type LeaseRequest struct {
	Driver string `json:"driver"` // who drives, for messages ("host pid 123")
}

// Lease is the answer to POST /v1/session and /v1/session/renew.
type Lease struct {
	ID      string `json:"id"`
	LeaseMs int64  `json:"lease_ms"`
}

// Duration is the lease's term.
func (s Lease) Duration() time.Duration { return time.Duration(s.LeaseMs) * time.Millisecond }

// ApplyRequest is POST /v1/apply.
type ApplyRequest struct {
	Variant VariantV1 `json:"variant"`
}

// WindowStarted is the answer to POST /v1/windows.
type WindowStarted struct {
	ID      string `json:"id"`
	Started int64  `json:"started"` // agent clock, Unix nanoseconds
}

// StopRequest is POST /v1/windows/{id}/stop.
type StopRequest struct {
	Requests int64 `json:"requests"`
}

// ErrorBody is every error answer.
type ErrorBody struct {
	Error string `json:"error"`
	// Applied is what a failed Apply had changed before it failed.
	Applied *AppliedV1 `json:"applied,omitempty"`
}

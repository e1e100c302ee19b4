package systemd

import "strings"

// Kind names a service manager implementation: what Controller.Kind
// returns, what stack.json records and what run.json shows as the target's
// supervisor (lab.TargetInfo.Supervisor).
type Kind string

// Controller kinds.
const (
	KindSystemdUser   Kind = "systemd-user"   // the systemd user manager, over D-Bus
	KindSystemdSystem Kind = "systemd-system" // the systemd system manager, over D-Bus
	KindDirect        Kind = "direct"         // the lab's own supervisor (package supervisor/direct)
)

// Mode is the supervisor a user asks for: `lab stack up --supervisor` and
// $LAB_SUPERVISOR take StackModes, supervisor.Connect ConnectModes.
type Mode string

// Modes.
const (
	ModeAuto        Mode = "auto"         // stack: the user manager when reachable, else direct; Connect: system (root only) -> user-private -> user-session -> direct
	ModeSystemd     Mode = "systemd"      // stack: the systemd user manager, fail when unreachable
	ModeSystem      Mode = "system"       // Connect: system manager: /run/systemd/private, else the system bus
	ModeUser        Mode = "user"         // Connect: user manager: private socket, else the session bus
	ModeUserPrivate Mode = "user-private" // Connect: user manager over $XDG_RUNTIME_DIR/systemd/private
	ModeUserSession Mode = "user-session" // Connect: user manager over the session bus
	ModeDirect      Mode = "direct"       // no systemd: the lab supervises the processes itself (KindDirect)
)

// StackModes are the modes `lab stack up` takes; ConnectModes those
// supervisor.Connect takes.
var (
	StackModes   = []Mode{ModeAuto, ModeSystemd, ModeDirect}
	ConnectModes = []Mode{ModeAuto, ModeSystem, ModeUser, ModeUserPrivate, ModeUserSession, ModeDirect}
)

// ModeList renders modes for messages: "auto, systemd, direct".
func ModeList(modes []Mode) string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

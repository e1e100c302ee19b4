// Package systemd starts, stops, restarts and inspects the services the lab
// measures: over systemd's D-Bus API (go-systemd) when a manager is
// reachable, or with a direct process supervisor otherwise. Both implement
// Controller, so the rest of the lab does not know which one it has.
package systemd

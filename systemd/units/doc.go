// Package units holds the lab's systemd unit files (lab-agent.service,
// lab-track.service and lab-track.timer), to copy into place; its test
// has systemd-analyze verify them.
package units

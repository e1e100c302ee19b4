package systemd

import "errors"

// NewDirect is being written.
func NewDirect(stateDir string) (Controller, error) { return nil, errors.New("systemd: direct supervisor not implemented yet") }

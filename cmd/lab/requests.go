package main

import (
	"errors"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// checkRequests reads the experiment's targets files (errors at
// file:line) and checks that every custom request can be sent, {jwt}
// templates included (they need jwt_secret), before any trial starts.
func checkRequests(e *lab.Experiment) error {
	var errs []error
	for _, c := range e.Custom {
		if c.Targets != "" {
			reqs, err := loadgen.ReadTargets(c.Targets)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, r := range reqs {
				if err := loadgen.CheckRequest(r, e.JWTSecret); err != nil {
					errs = append(errs, fmt.Errorf("%s: %s %s: %w", c.Targets, r.Method, r.Path, err))
					break
				}
			}
			continue
		}
		r := loadgen.Request{Method: c.Method, Path: c.Path, Header: c.Header, Body: []byte(c.Body), Expect: c.Expect}
		if err := loadgen.CheckRequest(r, e.JWTSecret); err != nil {
			errs = append(errs, fmt.Errorf("scenario %s: %w", c.Name, err))
		}
	}
	return errors.Join(errs...)
}

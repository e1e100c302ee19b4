package trial

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// CheckRequests reads the experiment's targets files (errors at
// file:line) and checks that every custom request can be sent, {jwt}
// templates included (they need jwt_secret, or jwt_private_key for alg=RS256), and that writes asking for
// tx=rollback are honoured, before any trial starts.
func CheckRequests(e *lab.Experiment) error {
	var errs []error
	key, err := loadgen.ReadJWTPrivateKey(e.JWTPrivateKey)
	if err != nil {
		return err
	}
	read := map[string]bool{} // per_line: several scenarios replay one file
	for _, c := range e.Custom {
		if c.Targets != "" {
			if read[c.Targets] {
				continue
			}
			read[c.Targets] = true
			reqs, err := loadgen.ReadTargets(c.Targets)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for i, r := range reqs { // the file's content is not quoted: target N, then what is wrong
				if err := loadgen.CheckRequest(r, e.JWTSecret, key); err != nil {
					errs = append(errs, fmt.Errorf("%s: target %d: %s", c.Targets, i+1, loadgen.SafeMessage(err)))
					break
				}
			}
			if err := rollbackHonoured(e, c.Targets, reqs); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		r, err := customRequest(&c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := loadgen.CheckRequest(r, e.JWTSecret, key); err != nil {
			if c.BodyFile != "" { // the body is a file's content: quote nothing of it
				err = fmt.Errorf("body_file %s: %s", c.BodyFile, loadgen.SafeMessage(err))
			}
			errs = append(errs, fmt.Errorf("scenario %s: %w", c.Name, err))
		}
	}
	return errors.Join(errs...)
}

// TargetLines reads a targets file's requests, for per_line
// (lab.Experiment.SplitTargets names a scenario after each).
func TargetLines(path string) ([]lab.TargetLine, error) {
	reqs, err := loadgen.ReadTargets(path)
	if err != nil {
		return nil, err
	}
	out := make([]lab.TargetLine, len(reqs))
	for i, r := range reqs {
		out[i] = lab.TargetLine{Method: r.Method, Path: r.Path}
	}
	return out, nil
}

// rollbackHonoured refuses a targets file whose writes ask for
// "Prefer: tx=rollback" when a variant does not let PostgREST honour it:
// without db-tx-end = commit-allow-override or rollback-allow-override,
// PostgREST 13 ignores the preference and commits, and the trials would
// change the data they measure.
func rollbackHonoured(e *lab.Experiment, file string, reqs []loadgen.Request) error {
	asks := 0 // 1-based: the last target asking
	for i, r := range reqs {
		for k, v := range r.Header {
			if strings.EqualFold(k, "Prefer") && strings.Contains(v, "tx=rollback") {
				asks = i + 1
			}
		}
	}
	if asks == 0 {
		return nil
	}
	var missing []string
	for _, v := range e.Variants {
		if end := v.PostgREST["db-tx-end"]; !strings.HasSuffix(end, "-allow-override") {
			missing = append(missing, v.Name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s: target %d asks for Prefer: tx=rollback, but variant(s) %s do not set db-tx-end = \"commit-allow-override\" (or \"rollback-allow-override\"): PostgREST would ignore the preference and commit the writes",
		file, asks, strings.Join(missing, ", "))
}

package postgrest

import "golang.org/x/mod/semver"

// compareVersions compares dotted version numbers ("12.2" < "13.0.8" <
// "14.17") as semantic versions; anything else ("", postgrest-mini's)
// sorts below every version.
func compareVersions(a, b string) int { return semver.Compare("v"+a, "v"+b) }

// Package runas is the account the measured PostgREST runs as: never
// root. When the lab runs as root, the target (and its twin) run as an
// unprivileged system user, "postgrest" unless the operator names another
// one, which the lab creates when it is missing, as distribution packages
// do; when the lab runs as another user, the target runs as that user.
//
// It also says whether that account can execute a binary and reach a
// directory, copies a binary it cannot reach into a directory it can
// (Stage), refuses a binary that a user other than root or the lab's own
// could replace (CheckBinary), and reads which user a process runs as
// (ProcessUID), so that a target started as root is caught however it was
// started. It is a leaf package: the stack and the server side use it.
package runas

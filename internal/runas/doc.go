// Package runas is what the lab runs that it did not write, and as whom.
// The measured PostgREST never runs as root: when the lab runs as root,
// the target (and its twin) run as an unprivileged system user,
// "postgrest" unless the operator names another one, which the lab
// creates when it is missing, as distribution packages do; when the lab
// runs as another user, the target runs as that user.
//
// Every binary the lab did not write is checked before anything of it
// runs (Account.Pin: opened without following links, checked through the
// open file; as root, copied into a Store only root can change, and the
// copy is what runs), asked its questions as the target's account, never
// as root (Account.Output), and started unable to gain privileges
// (StartConfined: no_new_privs, an empty capability bounding set). It
// also says whether an account can execute a binary and reach a directory,
// and reads which user a process runs as (ProcessUID), so that a target
// started as root is caught however it was started. It is a leaf package:
// the stack, the server side, the builds and the supervisors use it.
package runas

// Package stack brings up, inspects and tears down the lab's local stack: a
// PostgreSQL cluster and a PostgREST-compatible target server, both run as
// services (systemd user units over D-Bus when a manager is reachable,
// otherwise supervised directly), all under one state directory.
//
// Layout of a state directory:
//
//	stack.json       facts about the stack (ports, units, binaries), see Facts
//	pg-data/         the cluster (initdb once; kept by Down unless purge)
//	pg-socket/       PostgreSQL's Unix socket directory
//	postgrest.conf   the target's config, written with package configs
//	logs/            postgres.log, target.log
//	bin/             postgrest-mini built from the source tree, when needed
//
// Up is idempotent: services already running are reused. Down stops and
// removes only the units recorded in stack.json, which carry a hash of the
// state directory in their names, so two stacks never touch each other.
package stack

// Package configs reads, validates and safely rewrites the configuration the
// lab tunes: PostgREST config files (configurator-pg syntax), PostgREST's
// PGRST_* environment form, the db-uri transport (TCP or Unix socket), and
// PostgreSQL settings changed through ALTER SYSTEM.
//
// # PostgREST config files
//
// Parse keeps the source bytes and the position of every directive, so a
// File rewritten with Set or Delete changes only the bytes of the value (or
// the lines of the key) concerned; every other byte, comment and blank line
// is kept. Values are always rendered escaped, so no value can inject a key.
// Load computes what PostgREST itself sees: imports, $(VAR) interpolation,
// PGRST_* overrides from the environment and @file values.
//
// RedactURI shows a db-uri or connection string with its passwords
// replaced (internal/connstr): it fails closed, hiding what it cannot read
// (a URI whose userinfo is ambiguous up to its last '@', a query from a
// password= parameter on, key=value pairs libpq's rules cannot split,
// anything else whole). The parse errors of DeriveDBURI and Transport
// quote no part of the string that could be a password.
//
// # Catalogue
//
// ValidateSetting and ParseValue check and type values by PostgREST's table
// of keys (lab/postgrest: types, defaults, the versions that have them); a
// typo'd key is an error suggesting the closest known key.
//
// # Journal
//
// Every change the lab makes to a file goes through a Journal: the original
// bytes, mode, owner and hash are written (and fsynced) to the lab's state
// directory before the file is replaced atomically (temp file, fsync,
// rename). Restore puts the exact original back. A journal left by a killed
// run is reported by Pending and restored by Restore on the next start; a file
// changed by someone else since the lab wrote it is never overwritten
// blindly (ConflictError).
//
// On start, a CLI recovers what a killed run left:
//
//	j, err := configs.OpenJournal(stateDir)
//	for _, e := range j.Pending() {
//		fmt.Println("restoring after an interrupted run:", e)
//	}
//	restored, err := j.Restore()                        // files
//	needRestart, err := configs.RestorePGSettings(ctx, conn, j) // PostgreSQL, if a "pg" entry is pending
//
// # PostgreSQL settings
//
// ApplyPGSettings changes settings with ALTER SYSTEM after journalling, per
// setting, its prior state in postgresql.auto.conf (absent, or its value)
// and the file's bytes; it reloads the configuration and reports whether a
// restart is needed (pg_settings.pending_restart: context postmaster and a
// new value). RestorePGSettings runs ALTER SYSTEM SET <original> or ALTER
// SYSTEM RESET for each journalled setting, reloads, and clears the entry,
// which leaves postgresql.auto.conf byte-identical to before when only
// ALTER SYSTEM wrote it. A setting changed by someone else in between is a
// ConflictError and stays journalled. Restore restores files only: the
// PostgreSQL entry needs a superuser connection, so it waits for
// RestorePGSettings.
//
// A value means what it means in postgresql.conf. For the list settings
// whose elements ALTER SYSTEM quotes (search_path, temp_tablespaces, the
// *_preload_libraries, unix_socket_directories), search_path = "public, x"
// is the list public, x: the value is split as PostgreSQL reads such a list
// (commas; white space around elements ignored; "..." taken literally, ""
// a quote; unquoted identifiers of search_path and temp_tablespaces
// downcased) and each element given to ALTER SYSTEM as its own literal, so
// postgresql.auto.conf gets search_path = 'public, x', not the one schema
// '"public, x"'. A malformed list (a,,b) is refused. An empty value is given
// as the empty literal, which PostgreSQL writes as "" (as SET does). The
// journal records what postgresql.auto.conf holds after ALTER SYSTEM (as
// pg_file_settings shows it), and a conflict is judged on values as
// PostgreSQL writes them: the same text, the same list elements, or the
// value as one quoted element (a run killed before journalling, a journal
// of a lab that gave the list as one literal). Restoring an original list
// value splits it the same way, so the file comes back byte for byte. A
// list setting not named here (an extension's) is noticed when ALTER
// SYSTEM writes the value as one quoted element, and set again as a list.
// RestorePGSettingsOffline puts the journal's bytes back whatever the
// values.
package configs

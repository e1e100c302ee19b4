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
// # Catalogue
//
// Lookup and ValidateSetting know PostgREST's keys, their types, defaults and
// the first version that has them; a typo'd key is an error suggesting the
// closest known key.
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
package configs

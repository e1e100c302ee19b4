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
// # PostgreSQL settings
//
// ApplyPGSettings changes settings with ALTER SYSTEM after journalling their
// prior postgresql.auto.conf values, reloads the configuration, and reports
// whether a restart is needed (pg_settings.context = 'postmaster').
// RestorePGSettings puts the previous values back and reloads.
package configs

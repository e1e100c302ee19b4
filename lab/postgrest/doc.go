// Package postgrest is what the lab knows of PostgREST itself: its
// configuration keys, one row each in one table (keys.go), with every fact
// the lab needs about a key: its type, default and allowed values, the
// versions that have it (Since, Removed) and the key an old alias stands
// for, whether a config reload applies it, how much of its value may be
// shown (Shown: hidden unless the row says Visible, and hidden for a key
// the table lacks), and its class for variants (Tune, Privileged, Fixed)
// with the reason.
// The environment form of a key (PGRST_DB_POOL) is here too.
//
// Both readers of the table ask it: the config writer (package configs)
// for types, defaults and reloads, and the capability rules
// (lab/capability) for classes and what is shown, so they cannot disagree.
// A key the table lacks is Unlisted, never silently Tune (whether such a
// key is allowed at all is the catalogue check's decision,
// allow_unknown_keys), and its value is Hidden.
//
// It is a leaf of the domain: it imports only the standard library and
// leaves of internal/, so lab, lab/capability and the adapters may all
// import it.
package postgrest

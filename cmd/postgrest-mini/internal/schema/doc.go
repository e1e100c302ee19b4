// Package schema is postgrest-mini's schema cache: the tables and views of the
// exposed schemas with their columns, the foreign keys between them (from
// which embeds are resolved, both directions) and the callable functions with
// their parameters and return types. Load reads it from the PostgreSQL
// catalogs; a Cache is immutable once loaded and is swapped whole on reload.
package schema

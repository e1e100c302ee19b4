package postgrest

// Class is what a PostgREST key can do, which decides who may change it in
// a variant. The zero value is no class: every row of the table sets one.
type Class int

const (
	_ Class = iota
	// Tune keys change how PostgREST performs; any agent allows them
	// unless its config narrows the list.
	Tune
	// Privileged keys change who PostgREST is in the database or what it
	// exposes (roles, schemas, functions run per request, the JWT secret,
	// a foreign db-uri). An agent allows them only when its config names
	// them.
	Privileged
	// Fixed keys name an address, a port or a path: they belong to the
	// host, never to a variant.
	Fixed
	// Unlisted is the class of a key the table lacks (e.g. from a newer
	// PostgREST): it is allowed only where unknown keys are
	// (allow_unknown_keys), which the catalogue check decides.
	Unlisted
)

func (c Class) String() string {
	switch c {
	case Tune:
		return "tune"
	case Privileged:
		return "privileged"
	case Fixed:
		return "fixed"
	case Unlisted:
		return "unlisted"
	}
	return "unset"
}

// ClassOf is the class of key, with the reason for a class other than
// Tune; Unlisted for a key the table lacks.
func ClassOf(key string) (Class, string) {
	k, ok := Lookup(key)
	if !ok {
		return Unlisted, "is not a PostgREST key the lab knows"
	}
	return k.Class, k.Why
}

package postgrest

// Shown is how much of a key's value the lab shows wherever it writes one:
// the agent's replies and log, run.json, reports and the store. The rule is
// hidden unless the table says otherwise: the zero value is Hidden, so a
// row that forgets the column, and a key the table lacks, are hidden.
type Shown int

const (
	// Hidden values are shown as "<redacted>".
	Hidden Shown = iota
	// Visible values are shown as they are.
	Visible
	// PasswordsHidden values are connection strings, shown with their
	// passwords replaced (db-uri: the role and server stay readable).
	PasswordsHidden
)

func (s Shown) String() string {
	switch s {
	case Visible:
		return "visible"
	case PasswordsHidden:
		return "passwords hidden"
	}
	return "hidden"
}

// ShownOf is how much of key's value may be shown: its row's Shown (the
// app.settings.* row's for app.settings.x), Hidden for a key the table
// lacks.
func ShownOf(key string) Shown {
	k, ok := Lookup(key)
	if !ok {
		return Hidden
	}
	return k.Shown
}

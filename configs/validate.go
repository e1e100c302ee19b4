package configs

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// ValidateSetting checks a raw value for a key against the catalogue: an
// unknown key is an error suggesting the closest known key (unless
// allowUnknown), a value of the wrong type or outside an enum is an error
// naming the key and the allowed values. Errors are *KeyError.
func ValidateSetting(key, raw string, allowUnknown bool) error {
	k, ok := postgrest.Lookup(key)
	if !ok {
		if allowUnknown {
			return validKey(key)
		}
		return &KeyError{Key: key, Msg: "unknown PostgREST config key", Suggest: postgrest.Closest(key)}
	}
	return checkForms(k, raw)
}

// ValidateSettingAt is ValidateSetting for a target of PostgREST version
// v ("14.17"; "" when unknown, then any version's form is accepted): a key
// v does not have is a *postgrest.VersionError naming the version that has
// it and its replacement, and the value must be of v's type.
func ValidateSettingAt(key, raw, v string, allowUnknown bool) error {
	if v == "" {
		return ValidateSetting(key, raw, allowUnknown)
	}
	if err := postgrest.CheckIn(key, v); err != nil {
		return err
	}
	k, ok := postgrest.Lookup(key)
	if !ok {
		return ValidateSetting(key, raw, allowUnknown)
	}
	if err := checkType(k.At(v), raw); err != nil {
		var ke *KeyError
		if errors.As(err, &ke) && len(k.Eras) > 0 {
			ke.Msg += " in PostgREST " + v
		}
		return err
	}
	return nil
}

// checkForms accepts a value that any version's form of k accepts (the
// newest's error otherwise): a check that does not know the target's
// version.
func checkForms(k postgrest.Key, raw string) error {
	forms := k.Forms()
	first := checkType(forms[0], raw)
	if first == nil {
		return nil
	}
	for _, f := range forms[1:] {
		if checkType(f, raw) == nil {
			return nil
		}
	}
	return first
}

func checkType(k postgrest.Key, raw string) error {
	switch k.Type {
	case postgrest.TypeInt:
		if _, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64); err != nil {
			return &KeyError{Key: k.Name, Msg: strconv.Quote(raw) + " is not an integer"}
		}
	case postgrest.TypeBool:
		if _, err := parseBool(raw); err != nil {
			return &KeyError{Key: k.Name, Msg: strconv.Quote(raw) + " is not a boolean", Allowed: []string{"true", "false", "on", "off"}}
		}
	case postgrest.TypeEnum:
		for _, v := range k.Values {
			if raw == v {
				return nil
			}
		}
		return &KeyError{Key: k.Name, Msg: strconv.Quote(raw) + " is not an allowed value", Allowed: k.Values}
	case postgrest.TypeOctal:
		n, err := strconv.ParseUint(raw, 8, 32)
		if err != nil || n < 0o600 || n > 0o777 {
			return &KeyError{Key: k.Name, Msg: strconv.Quote(raw) + " is not an octal file mode between 600 and 777"}
		}
	}
	return nil
}

// ParseValue types a raw string for key per the catalogue: an int key gives
// an Int, a bool key a Bool, everything else (and unknown keys) a String
// whose resolved text is raw. A raw value the key's type refuses is an
// error (*KeyError); unknown keys are not an error here (see
// ValidateSetting).
func ParseValue(key, raw string) (Value, error) {
	k, ok := postgrest.Lookup(key)
	if !ok {
		return String(raw), nil
	}
	if err := checkForms(k, raw); err != nil {
		return Value{}, err
	}
	for _, f := range k.Forms() { // the newest form that takes it
		if checkType(f, raw) == nil {
			k = f
			break
		}
	}
	switch k.Type {
	case postgrest.TypeInt:
		n, _ := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		return Int(n), nil
	case postgrest.TypeBool:
		b, _ := parseBool(raw)
		return Bool(b), nil
	}
	return String(raw), nil
}

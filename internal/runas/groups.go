package runas

import (
	"os/user"
	"strconv"
)

// groups are a's supplementary groups, as initgroups(3) would give them.
func (a Account) groups() []int {
	u, err := user.LookupId(strconv.Itoa(a.UID))
	if err != nil {
		return nil
	}
	ids, err := u.GroupIds()
	if err != nil {
		return nil
	}
	var out []int
	for _, s := range ids {
		if n, err := strconv.Atoi(s); err == nil {
			out = append(out, n)
		}
	}
	return out
}

package loadgen

// openSchedule is an event loop's share of the open model's timeline:
// request k is due k/rate after the start, and a loop of n sends requests
// id, id+n, id+2n, … (so n loops together send every request once).
type openSchedule struct {
	rate    float64
	k, step int64
}

// at is when the next request is due, in ns since the start.
func (s *openSchedule) at() int64 { return int64(float64(s.k) * 1e9 / s.rate) }

// advance moves to this loop's following request.
func (s *openSchedule) advance() { s.k += s.step }

package lab

import (
	"fmt"
	"strings"
)

// Model is a load model (Load.Model). Its values are the constants below,
// listed once in Models; the questions the lab asks of a model are the
// methods here. Only what says each model's own fields (validate's checks,
// the report's load line) switches on the constants.
type Model string

// Load models.
const (
	ModelOpen   Model = "open"   // constant arrival rate
	ModelClosed Model = "closed" // fixed number of connections
	ModelSearch Model = "search" // highest open-model rate within Limit
	// ModelEfficiency first searches the baseline's capacity (as search,
	// within Limit), then measures every trial with the open model at
	// Utilisation of it; the primary metric is CPU per request.
	ModelEfficiency Model = "efficiency"
)

// Models are the load models, in the order messages list them.
var Models = []Model{ModelOpen, ModelClosed, ModelSearch, ModelEfficiency}

// Valid reports whether m is a load model, naming the allowed ones if not.
func (m Model) Valid() error { return oneOf(m, "a load model", Models, "") }

// Arrivals reports whether the generator sends requests at a rate (Rate,
// MaxInFlight): the open model, and the search, which tries open rates.
func (m Model) Arrivals() bool { return m == ModelOpen || m == ModelSearch }

// FixedRate reports whether every trial offers the one rate Rate: the
// open model.
func (m Model) FixedRate() bool { return m == ModelOpen }

// Closed reports whether the generator keeps a fixed number of
// connections busy (Connections, Think): the closed model.
func (m Model) Closed() bool { return m == ModelClosed }

// SearchesEachTrial reports whether every trial is a capacity search (its
// result the highest rate within Limit): the search model.
func (m Model) SearchesEachTrial() bool { return m == ModelSearch }

// SearchesCapacity reports whether the model runs a capacity search,
// which Limit (with its min_rate and max_rate) bounds: search and
// efficiency.
func (m Model) SearchesCapacity() bool { return m == ModelSearch || m == ModelEfficiency }

// Efficiency reports whether trials run at a share of the baseline's
// capacity, found first, with CPU per request as the primary metric.
func (m Model) Efficiency() bool { return m == ModelEfficiency }

// OneLoad reports whether one load of the generator runs the model (a
// trial or a search); efficiency is run by the Runner as a capacity search
// and then open-model trials.
func (m Model) OneLoad() bool { return m.Arrivals() || m.Closed() }

// CheckOneLoad is nil for a model one load runs, else an error naming the
// models that are (open, closed, search) and why efficiency is not.
func (m Model) CheckOneLoad() error {
	var names []string
	for _, x := range Models {
		if x.OneLoad() {
			names = append(names, string(x))
		}
	}
	if m.OneLoad() {
		return nil
	}
	note := ""
	if m.Efficiency() {
		note = "; efficiency runs as a capacity search, then open-model trials"
	}
	return fmt.Errorf("load model %q: allowed are %s%s", m, strings.Join(names, ", "), note)
}

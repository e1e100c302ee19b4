// Package load writes what `lab load` prints: a wrk-like summary (Text),
// one JSON object (JSON), the k6-style table (K6Table) and a rate search's
// curve (SearchText, SearchJSON). It reads its own types, Result and
// Search, which cmd/lab fills from the load generator's result: the report
// room does not import the generator.
package load

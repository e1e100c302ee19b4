package loadgen

import (
	"context"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/fixture"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// FixtureSide is one database of a fixture comparison (`lab fixture
// compare`): its shape and what every built-in scenario's requests answer
// from the server that serves it.
type FixtureSide struct {
	Name    string
	Shape   fixture.Shape
	Answers []Answer
}

// MeasureFixture measures the Chinook database at dbURI (fixture.MeasureShape)
// and the answers of every built-in scenario (Answers) from the server at
// baseURL, which serves that database.
func MeasureFixture(ctx context.Context, name, dbURI, baseURL string) (FixtureSide, error) {
	sh, err := fixture.MeasureShape(ctx, dbURI)
	if err != nil {
		return FixtureSide{}, fmt.Errorf("%s: %w", name, err)
	}
	side := FixtureSide{Name: name, Shape: sh}
	client := &http.Client{}
	defer client.CloseIdleConnections()
	for _, s := range builtins {
		a, err := Answers(ctx, client, baseURL, s)
		if err != nil {
			return FixtureSide{}, fmt.Errorf("%s: answers of %s: %w", name, baseURL, err)
		}
		side.Answers = append(side.Answers, a)
	}
	return side, nil
}

// FixtureComparison is the comparison of sides as Markdown: rows per
// table, the spreads, and per scenario the empty answers and the answer
// sizes, one column (or one value in a cell, "a / b") per side.
func FixtureComparison(sides []FixtureSide) string {
	var b strings.Builder
	names := make([]string, len(sides))
	for i, s := range sides {
		names[i] = format.MdEscape(s.Name)
	}
	joined := strings.Join(names, " / ")
	fmt.Fprintf(&b, "| table | %s |\n|---|%s\n", strings.Join(names, " | "), strings.Repeat("---:|", len(sides)))
	tables := slices.Sorted(maps.Keys(sides[0].Shape.Rows))
	for _, t := range tables {
		row := []string{t}
		for _, s := range sides {
			row = append(row, fmt.Sprint(s.Shape.Rows[t]))
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	fmt.Fprintf(&b, "\n| spread (%s) | min | median | max | none |\n|---|---:|---:|---:|---:|\n", joined)
	for _, sp := range []struct {
		name string
		get  func(fixture.Shape) fixture.Spread
	}{
		{"tracks per album", func(s fixture.Shape) fixture.Spread { return s.TracksPerAlbum }},
		{"albums per artist", func(s fixture.Shape) fixture.Spread { return s.AlbumsPerArtist }},
	} {
		cells := make([][]string, 4)
		for _, s := range sides {
			v := sp.get(s.Shape)
			for i, x := range []float64{v.Min, v.Median, v.Max, float64(v.Zero)} {
				cells[i] = append(cells[i], num(x))
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", sp.name, strings.Join(cells[0], " / "), strings.Join(cells[1], " / "),
			strings.Join(cells[2], " / "), strings.Join(cells[3], " / "))
	}
	fmt.Fprintf(&b, "\n| scenario (%s) | requests | `[]` | body bytes min | median | mean | max |\n|---|---:|---:|---:|---:|---:|---:|\n", joined)
	for i, a := range sides[0].Answers {
		cells := make([][]string, 6)
		for _, s := range sides {
			x := s.Answers[i]
			for j, v := range []float64{float64(x.Requests), float64(x.Empty), x.Min, x.Median, x.Mean(), x.Max} {
				cells[j] = append(cells[j], num(v))
			}
		}
		row := []string{format.MdEscape(a.Scenario)}
		for _, c := range cells {
			row = append(row, strings.Join(c, " / "))
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	return b.String()
}

// num is a count or a size: whole numbers without decimals, else one.
func num(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return format.Num(v, 4)
}

package chart

import (
	"html/template"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// RenderStack draws plots one above the other in one SVG, their X axes
// aligned (one time axis for several quantities), each panel h high.
func RenderStack(title string, ps []*plot.Plot, w, h vg.Length) (template.HTML, error) {
	c := vgsvg.New(w, h*vg.Length(len(ps)))
	rows := make([][]*plot.Plot, len(ps))
	for i, p := range ps {
		rows[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(ps), Cols: 1, PadY: vg.Points(4), PadTop: vg.Points(2), PadBottom: vg.Points(2)}
	canvases := plot.Align(rows, tiles, padded(draw.New(c), ps...))
	for i, p := range ps {
		p.Draw(canvases[i][0])
	}
	return svgOf(c, title)
}

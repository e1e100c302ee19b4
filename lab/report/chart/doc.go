// Package chart holds what every HTML report's charts share: Chart (an
// inline SVG with its caption), New (a plot with the reports' fonts and
// grid), Render (a plot as inline SVG, no XML prelude), the palette
// (Color) and ErrBars (medians with asymmetric confidence intervals). It
// imports gonum.org/v1/plot and the standard library only.
package chart

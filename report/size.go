package report

import (
	"fmt"

	"gonum.org/v1/plot/vg"
)

// Size is the size of every figure: Width × Height pixels in the PNG, at
// DPI dots per inch. The figure measures Width/DPI × Height/DPI inches,
// in the SVG too, and text keeps its size in points: a larger DPI at the
// same inches gives a sharper PNG of the same figure, a larger Width at
// the same DPI a wider figure with the same text.
type Size struct {
	Width, Height int // pixels
	DPI           int
}

// DefaultSize is 8 × 4.5 inches (16:9) at 160 dpi, 1280 × 720 pixels: a
// slide's width, with the house style's 12-point text readable on it.
var DefaultSize = Size{Width: 1280, Height: 720, DPI: 160}

// Bounds of a Size: below the minimum inches the axes, title and legend
// no longer fit; past the maximum pixels a PNG becomes too big to embed
// in the page.
const (
	minFigureInchesW = 4.0
	minFigureInchesH = 2.5
	maxFigurePixels  = 8000
	minDPI, maxDPI   = 36, 600
)

// orDefault fills the zero fields of s from DefaultSize, keeping inches
// when only the DPI is given: --dpi 192 alone is the default figure, twice
// as sharp.
func (s Size) orDefault() Size {
	if s.DPI == 0 {
		s.DPI = DefaultSize.DPI
	}
	if s.Width == 0 {
		s.Width = DefaultSize.Width * s.DPI / DefaultSize.DPI
	}
	if s.Height == 0 {
		s.Height = DefaultSize.Height * s.DPI / DefaultSize.DPI
	}
	return s
}

// Check reports a size the figures cannot be drawn at, naming the flag.
func (s Size) Check() error {
	if s.DPI < 0 || s.Width < 0 || s.Height < 0 {
		return fmt.Errorf("figure size: --width, --height and --dpi must be positive (got %d, %d, %d)", s.Width, s.Height, s.DPI)
	}
	s = s.orDefault()
	if s.DPI < minDPI || s.DPI > maxDPI {
		return fmt.Errorf("--dpi %d: want %d to %d", s.DPI, minDPI, maxDPI)
	}
	if s.Width > maxFigurePixels || s.Height > maxFigurePixels {
		return fmt.Errorf("--width %d --height %d: at most %d pixels each", s.Width, s.Height, maxFigurePixels)
	}
	w, h := float64(s.Width)/float64(s.DPI), float64(s.Height)/float64(s.DPI)
	if w < minFigureInchesW || h < minFigureInchesH {
		return fmt.Errorf("--width %d --height %d at --dpi %d is %.2g × %.2g inches: want at least %g × %g inches (%d × %d pixels at this dpi) for the axes and legend to fit",
			s.Width, s.Height, s.DPI, w, h, minFigureInchesW, minFigureInchesH,
			int(minFigureInchesW*float64(s.DPI)+0.5), int(minFigureInchesH*float64(s.DPI)+0.5))
	}
	return nil
}

// inches is the figure's size in gonum's units.
func (s Size) inches() (w, h vg.Length) {
	s = s.orDefault()
	return vg.Length(s.Width) / vg.Length(s.DPI) * vg.Inch, vg.Length(s.Height) / vg.Length(s.DPI) * vg.Inch
}

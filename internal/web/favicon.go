package web

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"
)

// favicon serves /favicon.ico, which browsers, feed readers and bookmark
// tools fetch without reading the page: the site's icon, drawn once at
// start-up into the ICO format they all decode.
func (s *Site) favicon(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "image/x-icon")
	h.Set("Cache-Control", "public, max-age=86400")
	write(w, r, http.StatusOK, s.assets.ico)
}

// iconCircle is a <circle> of the site's SVG icon.
type iconCircle struct {
	CX   float64 `xml:"cx,attr"`
	CY   float64 `xml:"cy,attr"`
	R    float64 `xml:"r,attr"`
	Fill string  `xml:"fill,attr"`
}

// icoSize is the width and height of the icon in /favicon.ico.
const icoSize = 32

// icoFromSVG draws the circles of the site's icon (an SVG of filled
// circles on a 32×32 view box) into a 32×32 PNG, wrapped in an ICO file
// of one image, which every browser since Windows Vista's reads.
func icoFromSVG(svg []byte) ([]byte, error) {
	var doc struct {
		ViewBox string       `xml:"viewBox,attr"`
		Circles []iconCircle `xml:"circle"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		return nil, fmt.Errorf("web: favicon: %w", err)
	}
	if doc.ViewBox != "0 0 32 32" || len(doc.Circles) == 0 {
		return nil, fmt.Errorf("web: favicon: want circles on a 0 0 32 32 view box, got %q with %d circles", doc.ViewBox, len(doc.Circles))
	}
	fills := make([]color.NRGBA, len(doc.Circles))
	for i, c := range doc.Circles {
		v, err := strconv.ParseUint(strings.TrimPrefix(c.Fill, "#"), 16, 32)
		if err != nil || len(c.Fill) != 7 {
			return nil, fmt.Errorf("web: favicon: fill %q is not #rrggbb", c.Fill)
		}
		fills[i] = color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
	}
	// Each pixel is the average of 4×4 samples, painted in document order,
	// so that the edges are smooth.
	const n = 4
	img := image.NewNRGBA(image.Rect(0, 0, icoSize, icoSize))
	for y := range icoSize {
		for x := range icoSize {
			var r, g, b, a float64
			for sy := range n {
				for sx := range n {
					px, py := float64(x)+(float64(sx)+0.5)/n, float64(y)+(float64(sy)+0.5)/n
					for i := len(doc.Circles) - 1; i >= 0; i-- {
						c := doc.Circles[i]
						if dx, dy := px-c.CX, py-c.CY; dx*dx+dy*dy <= c.R*c.R {
							f := fills[i]
							r, g, b, a = r+float64(f.R), g+float64(f.G), b+float64(f.B), a+1
							break
						}
					}
				}
			}
			if a > 0 {
				img.SetNRGBA(x, y, color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(255 * a / (n * n))})
			}
		}
	}
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		return nil, err
	}
	// ICONDIR (reserved, type 1 = icon, one image), then its ICONDIRENTRY
	// (width, height, no palette, reserved, one plane, 32 bits per pixel,
	// size of the image, offset of the image), then the PNG itself.
	var ico bytes.Buffer
	_ = binary.Write(&ico, binary.LittleEndian, struct {
		Reserved, Type, Count  uint16
		Width, Height, Palette uint8
		Reserved2              uint8
		Planes, BitsPerPixel   uint16
		Size, Offset           uint32
	}{0, 1, 1, icoSize, icoSize, 0, 0, 1, 32, uint32(pngData.Len()), 22})
	ico.Write(pngData.Bytes())
	return ico.Bytes(), nil
}

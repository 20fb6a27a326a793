package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// htmx is copied from the npm package pinned in test/browser/package.json;
// the browser test checks that the copy is byte for byte the pinned one.
//go:generate cp ../../test/browser/node_modules/htmx.org/dist/htmx.min.js assets/htmx.min.js

//go:embed assets/site.css assets/htmx.min.js assets/favicon.svg assets/site.js
var assetFiles embed.FS

// AssetsPath is where the stylesheet and scripts are served, each under a
// name that carries a hash of its content, so that it can be cached for
// good and a new build still takes effect at once.
const AssetsPath = "/assets/"

// asset is one static file under its content-addressed name.
type asset struct {
	url         string
	body        []byte
	contentType string
}

// assets are the site's static files, by the name of their source file and
// by the path they are served at.
type assets struct {
	byName map[string]*asset
	byPath map[string]*asset
	// ico is the icon in the ICO format, served at /favicon.ico.
	ico []byte
}

func loadAssets() (*assets, error) {
	a := &assets{byName: map[string]*asset{}, byPath: map[string]*asset{}}
	for _, name := range []string{"site.css", "htmx.min.js", "favicon.svg", "site.js"} {
		body, err := assetFiles.ReadFile("assets/" + name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		ext := path.Ext(name)
		served := AssetsPath + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
		ct := mime.TypeByExtension(ext)
		if ext == ".svg" {
			ct = "image/svg+xml"
		}
		if strings.HasPrefix(ct, "text/") && !strings.Contains(ct, "charset") {
			ct += "; charset=utf-8"
		}
		x := &asset{url: served, body: body, contentType: ct}
		a.byName[name], a.byPath[served] = x, x
	}
	var err error
	a.ico, err = icoFromSVG(a.byName["favicon.svg"].body)
	return a, err
}

// URL returns the served path of the named asset.
func (a *assets) URL(name string) string { return a.byName[name].url }

// serve answers an asset request; it reports false when there is none at
// the path.
func (a *assets) serve(w http.ResponseWriter, r *http.Request) bool {
	x, ok := a.byPath[r.URL.Path]
	if !ok {
		return false
	}
	h := w.Header()
	h.Set("Content-Type", x.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Content-Length", strconv.Itoa(len(x.body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(x.body)
	}
	return true
}

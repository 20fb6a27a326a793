// Package discovery serves what tells programs about the service: the
// OpenAPI document, the RFC 9727 API catalog, the MCP discovery metadata,
// llms.txt, the health checks, and real JSON 404s for every /.well-known
// resource the service does not offer.
package discovery

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"signals/internal/failure"
	"signals/internal/problem"
)

// Paths of the discovery resources.
const (
	OpenAPIPath    = "/openapi.json"
	CatalogPath    = "/.well-known/api-catalog"
	MCPMetaPath    = "/.well-known/mcp.json"
	LLMsPath       = "/llms.txt"
	SecurityPath   = "/.well-known/security.txt"
	HealthPath     = "/healthz"
	ReadyPath      = "/readyz"
	WellKnownPath  = "/.well-known/"
	MCPPath        = "/mcp"
	FeedJSONPath   = "/feed.json"
	FeedRSSPath    = "/feed.rss"
	FeedAtomPath   = "/feed.atom"
	AccountPath    = "/account"
	DevelopersPath = "/developers"
)

// Content types of the documents. The OpenAPI document is served as plain
// application/json: application/openapi+json is not a registered media type
// yet, and generic JSON tooling (browsers, jq, validators, code generators)
// recognises application/json.
const (
	OpenAPIType = "application/json"
	CatalogType = `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`
	MCPMetaType = "application/json"
	LLMsType    = "text/plain; charset=utf-8"
)

// ContactPath is the public page that says how to reach the people behind
// the service.
const ContactPath = "/contact"

// CacheControl is how long shared caches may keep a discovery document.
const CacheControl = "public, max-age=300"

// Pinger checks that the store answers.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Config is what the discovery handlers need.
type Config struct {
	BaseURL  string
	Problems problem.Renderer
	Store    Pinger
	Log      *slog.Logger
	// Now is the clock that dates security.txt; nil is time.Now.
	Now func() time.Time
	// SecurityContact is the Contact URI of security.txt; "" is the
	// Contact page.
	SecurityContact string
}

// Handler serves the discovery resources. The documents are built once.
type Handler struct {
	cfg     Config
	base    string
	openapi document
	catalog document
	mcp     document
	llms    document
}

// New builds the documents for cfg.BaseURL.
func New(cfg Config) *Handler {
	base := strings.TrimRight(cfg.BaseURL, "/")
	h := &Handler{cfg: cfg, base: base}
	h.openapi = newDocument(OpenAPI(base), OpenAPIType)
	h.catalog = newDocument(Catalog(base), CatalogType)
	// RFC 9727 §2: responses of the catalog link to it with rel="api-catalog".
	h.catalog.link = "<" + base + CatalogPath + `>; rel="api-catalog"`
	h.mcp = newDocument(MCPMetadata(base), MCPMetaType)
	h.llms = newDocument(LLMsTxt(base), LLMsType)
	return h
}

// Route is one entry of the route table: a pattern, with its method when
// it has one ("GET /openapi.json"), and its handler.
type Route struct {
	Pattern string
	Handler http.Handler
}

// Routes returns the discovery routes. Every /.well-known resource without
// a route of its own is a JSON 404, whatever the method: the OAuth
// metadata of /mcp is added by registering its exact path
// ("/.well-known/oauth-protected-resource/mcp",
// "/.well-known/oauth-authorization-server"), which takes precedence over
// the catch-all.
func (h *Handler) Routes() []Route {
	return []Route{
		{"GET " + OpenAPIPath, h.openapi},
		{"GET " + CatalogPath, h.catalog},
		{"GET " + MCPMetaPath, h.mcp},
		{"GET " + LLMsPath, h.llms},
		{"GET " + SecurityPath, http.HandlerFunc(h.securityTxt)},
		{"GET " + HealthPath, http.HandlerFunc(h.health)},
		{"GET " + ReadyPath, http.HandlerFunc(h.ready)},
		{WellKnownPath, http.HandlerFunc(h.wellKnownNotFound)},
		{strings.TrimSuffix(WellKnownPath, "/"), http.HandlerFunc(h.wellKnownNotFound)},
	}
}

// OpenAPIDocument returns the served OpenAPI document.
func (h *Handler) OpenAPIDocument() []byte { return bytes.Clone(h.openapi.body) }

// marshal writes a document as indented JSON, leaving <, > and & as they
// are: the documents are not embedded in HTML.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // the documents are built from plain values
	}
	return b.Bytes()
}

// ordered is a JSON object whose first keys come in a given order (the
// others follow sorted).
type ordered struct {
	m     map[string]any
	first []string
}

// MarshalJSON implements json.Marshaler.
func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	done := map[string]bool{}
	keys := slices.Clone(o.first)
	rest := slices.Sorted(maps.Keys(o.m))
	keys = append(keys, rest...)
	b.WriteByte('{')
	for _, k := range keys {
		v, ok := o.m[k]
		if !ok || done[k] {
			continue
		}
		if len(done) > 0 {
			b.WriteByte(',')
		}
		done[k] = true
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// document is a fixed response body with a strong validator.
type document struct {
	body        []byte
	contentType string
	etag        string
	link        string
}

func newDocument(body []byte, contentType string) document {
	sum := sha256.Sum256(body)
	return document{body: body, contentType: contentType, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// ServeHTTP answers GET and HEAD with the document, or 304 when
// If-None-Match names its entity tag.
func (d document) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", d.contentType)
	h.Set("Cache-Control", CacheControl)
	// Public documents, as the feeds are: a browser tool on any origin
	// may read them (no credentials are involved).
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("ETag", d.etag)
	if d.link != "" {
		h.Set("Link", d.link)
	}
	if inm := r.Header.Values("If-None-Match"); len(inm) > 0 {
		if matchesETag(inm, d.etag) {
			h.Del("Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(d.body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(d.body)
	}
}

// matchesETag reports whether an If-None-Match field names etag, comparing
// weakly as RFC 9110 §13.1.2 requires.
func matchesETag(fields []string, etag string) bool {
	for _, f := range fields {
		for t := range strings.SplitSeq(f, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// securityExpiry is how far ahead security.txt expires: RFC 9116 asks for
// less than a year, so that a stale file is not trusted for long.
const securityExpiry = 180 * 24 * time.Hour

// securityTxt serves /.well-known/security.txt (RFC 9116): the configured
// security contact (the mail sender unless set), or else the Contact page.
// Expires moves with the clock and stays on a day boundary, so the file is
// the same all day.
func (h *Handler) securityTxt(w http.ResponseWriter, r *http.Request) {
	now := time.Now
	if h.cfg.Now != nil {
		now = h.cfg.Now
	}
	expires := now().UTC().Truncate(24 * time.Hour).Add(securityExpiry)
	contact := h.cfg.SecurityContact
	if contact == "" {
		contact = h.base + ContactPath
	}
	body := "Contact: " + contact + "\n" +
		"Expires: " + expires.Format(time.RFC3339) + "\n" +
		"Canonical: " + h.base + SecurityPath + "\n" +
		"Preferred-Languages: en\n"
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("Cache-Control", CacheControl)
	hd.Set("Access-Control-Allow-Origin", "*")
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body))
	}
}

// health is liveness: the process answers. It never touches the store.
func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	writeStatus(w, r, `{"status":"ok"}`)
}

// ready is readiness: the store answers a ping within two seconds.
func (h *Handler) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := h.cfg.Store.Ping(ctx); err != nil {
		// The API's code for the same cause: a database that cannot be
		// reached is service_unavailable (the renderer says so, and keeps
		// the outage's log lines); one that does not answer in time is
		// service_busy.
		if un := h.cfg.Problems.Unreachable; un != nil && un(err) {
			h.cfg.Problems.Write(w, r, err)
			return
		}
		if h.cfg.Log != nil {
			h.cfg.Log.Warn("readiness check failed", "request_id", r.Header.Get(problem.RequestIDHeader), "err", err)
		}
		h.cfg.Problems.Write(w, r, failure.New(failure.CodeServiceBusy,
			"the service is not ready: its database does not answer in time; retry shortly").WithRetryAfter(1))
		return
	}
	writeStatus(w, r, `{"status":"ready"}`)
}

func writeStatus(w http.ResponseWriter, r *http.Request, body string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body + "\n"))
	}
}

// wellKnownNotFound answers every /.well-known resource the service does
// not offer with a JSON 404, whatever the method: never a page, never a
// redirect to sign-in.
func (h *Handler) wellKnownNotFound(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/.well-known"), "/")
	offered := "; this service offers " + h.base + CatalogPath + " and " + h.base + MCPMetaPath
	var detail string
	switch first, _, _ := strings.Cut(name, "/"); first {
	case "openid-configuration":
		detail = "OpenID Connect is not offered by this service" + offered
	case "http-message-signatures-directory":
		detail = "this service publishes no HTTP message signature keys" + offered
	case "oauth-protected-resource", "oauth-authorization-server":
		detail = "no OAuth metadata at /.well-known/" + name + ": OAuth applies only to the MCP endpoint " +
			h.base + MCPPath + ", never to the HTTP API"
	default:
		detail = "no discovery resource at /.well-known/" + name + offered
	}
	h.cfg.Problems.Write(w, r, failure.NotFound(detail))
}

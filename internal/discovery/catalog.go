package discovery

import "signals/internal/reads"

// link is a target of an RFC 9264 linkset (JSON form, §4.2).
type link struct {
	Href  string `json:"href"`
	Type  string `json:"type,omitempty"`
	Title string `json:"title,omitempty"`
}

// linkContext is one context of a linkset with the relations the catalog
// uses, the anchor first.
type linkContext struct {
	Anchor      string `json:"anchor"`
	Item        []link `json:"item,omitempty"`
	ServiceDesc []link `json:"service-desc,omitempty"`
	ServiceDoc  []link `json:"service-doc,omitempty"`
	ServiceMeta []link `json:"service-meta,omitempty"`
	Status      []link `json:"status,omitempty"`
	Alternate   []link `json:"alternate,omitempty"`
}

// Catalog returns the RFC 9727 API catalog: a linkset whose first context
// is the catalog itself, listing the APIs as "item" links (RFC 9727 §4.1),
// followed by one context per API with its description (service-desc),
// documentation (service-doc), status and metadata (RFC 8631), and for the
// read API its anonymous alternates, the public feeds.
func Catalog(base string) []byte {
	apiURL := base + reads.Prefix
	mcpURL := base + MCPPath
	linkset := []linkContext{
		{
			Anchor: base + CatalogPath,
			Item: []link{
				{Href: apiURL, Title: "Signals HTTP read API"},
				{Href: mcpURL, Title: "Signals MCP server (Streamable HTTP)"},
			},
		},
		{
			Anchor:      apiURL,
			ServiceDesc: []link{{Href: base + OpenAPIPath, Type: OpenAPIType, Title: "OpenAPI 3.1 description"}},
			ServiceDoc:  []link{{Href: base + DevelopersPath + "/api", Type: "text/html", Title: "HTTP API documentation"}},
			Status:      []link{{Href: base + HealthPath, Type: "application/json", Title: "Liveness"}},
			Alternate: []link{
				{Href: base + FeedJSONPath, Type: "application/feed+json", Title: "Public signals as JSON Feed 1.1 (no key)"},
				{Href: base + FeedRSSPath, Type: "application/rss+xml", Title: "Public signals as RSS (no key)"},
				{Href: base + FeedAtomPath, Type: "application/atom+xml", Title: "Public signals as Atom (no key)"},
			},
		},
		{
			Anchor:      mcpURL,
			ServiceMeta: []link{{Href: base + MCPMetaPath, Type: MCPMetaType, Title: "MCP endpoint, transport, key setup, tools and limits"}},
			ServiceDoc:  []link{{Href: base + DevelopersPath + "/mcp", Type: "text/html", Title: "MCP documentation"}},
			Status:      []link{{Href: base + HealthPath, Type: "application/json", Title: "Liveness"}},
		},
	}
	return marshal(struct {
		Linkset []linkContext `json:"linkset"`
	}{linkset})
}

// Package consent holds what an OAuth grant is made of, shared by the
// authorization server, the account area and the discovery documents: the
// scopes a client may ask for, the consent a person gives, the connections
// it creates, and where the protected resource describes itself.
package consent

import "time"

// Scopes.
const (
	ScopeRead   = "signals:read"
	ScopeSearch = "signals:search"
)

// Scopes are every scope, in the order they are shown and granted.
var Scopes = []string{ScopeRead, ScopeSearch}

// ProtectedResourcePath is where the MCP server's protected-resource
// metadata is served.
const ProtectedResourcePath = "/.well-known/oauth-protected-resource/mcp"

// Consent is what the OAuth consent page shows and posts back.
type Consent struct {
	// ClientName is the client's registered name (third-party text,
	// escaped like all page text).
	ClientName string
	// RedirectURI is where the answer is sent; the page names its host.
	RedirectURI string
	Scopes      []Scope
	// Action is the path the form posts to, with Fields hidden in it.
	Action string
	Fields []Field
}

// Scope is one permission asked for, in plain words.
type Scope struct {
	Name, Description string
}

// Field is a hidden form field.
type Field struct {
	Name, Value string
}

// Connection is an app connected to an account with OAuth.
type Connection struct {
	ID          string
	ClientName  string
	Scopes      []string
	ConnectedAt time.Time
	LastUsed    *time.Time
}

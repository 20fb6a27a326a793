package oauth

import (
	"encoding/json"
	"net/http"
	"signals/internal/consent"
)

// ProtectedResourceMetadata is the RFC 9728 §2 document of /mcp.
type ProtectedResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name"`
	ResourceDocumentation  string   `json:"resource_documentation"`
}

// ServerMetadata is the RFC 8414 §2 document of the authorization server.
type ServerMetadata struct {
	Issuer                                 string   `json:"issuer"`
	AuthorizationEndpoint                  string   `json:"authorization_endpoint"`
	TokenEndpoint                          string   `json:"token_endpoint"`
	RegistrationEndpoint                   string   `json:"registration_endpoint"`
	RevocationEndpoint                     string   `json:"revocation_endpoint"`
	ScopesSupported                        []string `json:"scopes_supported"`
	ResponseTypesSupported                 []string `json:"response_types_supported"`
	ResponseModesSupported                 []string `json:"response_modes_supported"`
	GrantTypesSupported                    []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported      []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethodsSupported []string `json:"revocation_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported          []string `json:"code_challenge_methods_supported"`
	ServiceDocumentation                   string   `json:"service_documentation"`
	// AuthorizationResponseIssParameterSupported (RFC 9207): redirects
	// carry iss, so a client can tell which server answered.
	AuthorizationResponseIssParameterSupported bool `json:"authorization_response_iss_parameter_supported"`
	// ClientIDMetadataDocumentSupported is false: clients register with
	// RegisterPath; URL-based client identity documents are not enabled
	// (docs/mcp.md).
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported"`
}

// ProtectedResource returns the protected resource metadata.
func (s *Server) ProtectedResourceMetadata() ProtectedResourceMetadata {
	return ProtectedResourceMetadata{
		Resource:               s.resource,
		AuthorizationServers:   []string{s.issuer},
		ScopesSupported:        consent.Scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "Signals MCP server",
		ResourceDocumentation:  s.issuer + "/developers/mcp",
	}
}

// ServerMetadata returns the authorization server metadata.
func (s *Server) ServerMetadata() ServerMetadata {
	none := []string{"none"}
	return ServerMetadata{
		Issuer:                                     s.issuer,
		AuthorizationEndpoint:                      s.issuer + AuthorizePath,
		TokenEndpoint:                              s.issuer + TokenPath,
		RegistrationEndpoint:                       s.issuer + RegisterPath,
		RevocationEndpoint:                         s.issuer + RevokePath,
		ScopesSupported:                            consent.Scopes,
		ResponseTypesSupported:                     []string{"code"},
		ResponseModesSupported:                     []string{"query"},
		GrantTypesSupported:                        []string{GrantAuthorizationCode, GrantRefreshToken},
		TokenEndpointAuthMethodsSupported:          none,
		RevocationEndpointAuthMethodsSupported:     none,
		CodeChallengeMethodsSupported:              []string{"S256"},
		ServiceDocumentation:                       s.issuer + "/developers/mcp",
		AuthorizationResponseIssParameterSupported: true,
	}
}

// metadataCache is how long clients may keep a metadata document.
const metadataCache = "public, max-age=300"

// ProtectedResource serves GET /.well-known/oauth-protected-resource/mcp.
func (s *Server) ProtectedResource(w http.ResponseWriter, r *http.Request) {
	writeMetadata(w, r, s.ProtectedResourceMetadata())
}

// AuthorizationServer serves GET /.well-known/oauth-authorization-server.
func (s *Server) AuthorizationServer(w http.ResponseWriter, r *http.Request) {
	writeMetadata(w, r, s.ServerMetadata())
}

func writeMetadata(w http.ResponseWriter, r *http.Request, v any) {
	body, _ := json.MarshalIndent(v, "", "  ")
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", metadataCache)
	// Browser-based MCP clients read the metadata from another origin.
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(append(body, '\n'))
}

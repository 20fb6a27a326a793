package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"signals/internal/auth"
	"signals/internal/consent"
	"signals/internal/failure"
	"signals/internal/reads"
)

// toolScopes says which scope an OAuth access token needs for each tool;
// API keys hold every permission (docs/mcp.md).
var toolScopes = map[string]string{
	ListTool:   consent.ScopeRead,
	GetTool:    consent.ScopeRead,
	SearchTool: consent.ScopeSearch,
}

// ScopeChallenge is the WWW-Authenticate value of a 403 for a missing
// scope (docs/mcp.md): it names every scope, so that the client asks for
// consent to what it lacks.
func ScopeChallenge(baseURL string) string {
	return `Bearer error="insufficient_scope", scope="` + strings.Join(consent.Scopes, " ") +
		`", resource_metadata="` + strings.TrimRight(baseURL, "/") + consent.ProtectedResourcePath + `"`
}

// missingScope returns the scope that a tool call in the request needs and
// p lacks, or "". Only tools/call messages need a scope; the body is read
// and put back for the SDK. A body that does not parse is the SDK's to
// refuse.
func missingScope(r *http.Request, p auth.Principal) string {
	if p.GrantID == "" {
		return ""
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, reads.MaxBodyBytes+1))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil {
		return ""
	}
	type call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	var calls []call
	if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(body, &calls) != nil {
			return ""
		}
	} else {
		var c call
		if json.Unmarshal(body, &c) != nil {
			return ""
		}
		calls = []call{c}
	}
	for _, c := range calls {
		if c.Method != "tools/call" {
			continue
		}
		if need, ok := toolScopes[c.Params.Name]; ok && !p.Allows(need) {
			return need
		}
	}
	return ""
}

// refuseScope answers a tool call that needs a scope the token lacks.
func (s *Server) refuseScope(w http.ResponseWriter, r *http.Request, need string) {
	w.Header().Set("WWW-Authenticate", ScopeChallenge(s.cfg.BaseURL))
	s.cfg.Problems.Write(w, r, failure.New(failure.CodeInsufficientScope,
		"this connection was not granted "+need+"; authorize again with scope \""+strings.Join(consent.Scopes, " ")+"\""))
}

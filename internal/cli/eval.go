package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"signals/internal/app"
	"signals/internal/demo"
	"signals/internal/importer"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/search/builtin"
	"signals/internal/search/eval"
	"signals/internal/search/openai"
	"signals/internal/search/sentence"
	"signals/internal/store/sqlite"
)

// evalSearch measures the configured scorer on the labelled evaluation sets
// over the bundled demo data, on what a search returns (the matches at the
// cutoff): recall of the grade-2 signals, precision, on-topic queries with
// no match, off-topic matches and nDCG@10, each set beside the BM25
// baseline on the same labels. With --fit it first fits the scorer's
// calibration on the fit sets: the openai provider's two settings are
// printed, the builtin calibration is printed or, with --write, written to
// the file the binary embeds.
func evalSearch(ctx context.Context, args []string, env Env) error {
	c := newScratchCommand("eval-search", env)
	c.searchFlags()
	set := c.fs.String("set", "", "an evaluation set (JSON); default: every bundled set over the demo data")
	verbose := c.fs.Bool("v", false, "print one line per query")
	fit := c.fs.Bool("fit", false, "fit the scorer's calibration on the fit sets (eval.json and eval-asks.json, or --set) and print it")
	write := c.fs.String("write", "", "with --fit and the builtin scorer: write the calibration to this file (internal/search/builtin/calibration.json ships it)")
	refine := c.fs.Bool("refine", false, "with --fit and the builtin scorer: then tune the calibration's spread and rank for the recall at the cutoff and refit its slope (the bundled model's calibration is fitted so)")
	encoder := c.fs.String("encoder", "", "measure a sentence-embedding model: an .onnx file with its tokenizer.json beside it, scored with the builtin query reading (or alone, with --encoder-alone)")
	alone := c.fs.Bool("encoder-alone", false, "with --encoder: score by the model's cosine alone")
	langs := c.fs.String("encoder-languages", "", "with --encoder: the languages the model reads, en or fr, comma-separated (the bundled model reads en); the word vectors score questions in the others, as the service does; unset: the model scores every question")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	if *write != "" && !*fit {
		return fmt.Errorf("%w: --write writes what --fit finds: give both", errUsage)
	}
	if *langs != "" && (*encoder == "" || *alone) {
		return fmt.Errorf("%w: --encoder-languages is for a model measured inside the query reading: give --encoder without --encoder-alone", errUsage)
	}
	if *langs != "" {
		for l := range strings.SplitSeq(*langs, ",") {
			if l != "en" && l != "fr" {
				return fmt.Errorf("%w: --encoder-languages: %q is no language the query reading tells (en, fr)", errUsage, l)
			}
		}
	}
	if *refine && !*fit {
		return fmt.Errorf("%w: --refine refines what --fit finds: give both", errUsage)
	}
	scorer, err := app.NewScorer(c.cfg.Search)
	if err != nil {
		return err
	}
	if *encoder != "" {
		if scorer, err = candidateScorer(*encoder, *alone, *langs, env); err != nil {
			return err
		}
	}
	if _, ok := scorer.(*builtin.Scorer); *write != "" && !ok {
		return fmt.Errorf("%w: --write is for the builtin calibration; the openai one is set with SIGNALS_SEARCH_THRESHOLD and SIGNALS_SEARCH_SLOPE, which --fit prints", errUsage)
	}
	if _, ok := scorer.(*builtin.Scorer); *refine && !ok {
		return fmt.Errorf("%w: --refine is for the builtin calibration, with or without a sentence model", errUsage)
	}
	sets, err := readEvalSets(*set)
	if err != nil {
		return err
	}
	demo, err := embedDemo(ctx, scorer)
	if err != nil {
		return err
	}
	if *fit {
		fitSet := sets[0].Set
		if *set == "" {
			if fitSet, err = eval.BundledSet(); err != nil {
				return err
			}
		}
		if scorer, err = fitScorer(ctx, scorer, demo.cands, fitSet, fitOptions{*write, *refine, *encoder != ""}, env); err != nil {
			return err
		}
	}
	return report(ctx, scorer, demo, sets, *verbose, env)
}

// embedded is the demo signals as eval-search measures them: embedded once,
// in one call as an indexing pass embeds them, for the fit and the figures
// alike (a calibration does not change a signal's vector), and how long
// that took.
type embedded struct {
	docs      []eval.Doc
	cands     []search.Candidate
	embedding time.Duration
}

// embedDemo loads the public demo signals and embeds them with scorer.
func embedDemo(ctx context.Context, scorer search.Scorer) (embedded, error) {
	docs, err := demoDocs(ctx)
	if err != nil {
		return embedded{}, err
	}
	start := time.Now()
	cands, err := eval.Candidates(ctx, scorer, docs)
	if err != nil {
		return embedded{}, err
	}
	return embedded{docs, cands, time.Since(start)}, nil
}

// report prints the figures of scorer and of the BM25 baseline on each set,
// and with verbose, one line per query of each, with what embedding the
// demo signals and scoring each question cost above the figures.
func report(ctx context.Context, scorer search.Scorer, demo embedded, sets []eval.Named, verbose bool, env Env) error {
	bm, err := eval.NewBM25(ctx, demo.docs)
	if err != nil {
		return err
	}
	defer bm.Close()
	fmt.Fprintf(env.Stdout, "scorer %s over %d public demo signals\n", scorer.Model(), len(demo.docs))
	fmt.Fprintf(env.Stdout, "what a search returns: relevance >= %.2f, best first, at most %d; BM25: SQLite FTS5, top %d\n",
		search.Cutoff, search.MaxMatches, eval.BM25Top)
	timed := &timedScorer{Scorer: scorer}
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tqueries\t\trecall\tprecision\tno match\toff-topic matches\tnDCG@10\tranked nDCG@10\tlabelled-cut recall")
	var reports []eval.Report
	for _, n := range sets {
		rep, err := eval.EvaluateCandidates(ctx, timed, demo.cands, n.Set)
		if err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		base, err := eval.EvaluateBM25(ctx, bm, demo.docs, n.Set)
		if err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		if len(rep.Unknown) > 0 {
			return fmt.Errorf("%s labels signals that are not public demo signals: %s", n.Name, strings.Join(rep.Unknown, ", "))
		}
		writeSetRows(tw, n.Name, rep, base)
		reports = append(reports, rep)
	}
	tw.Flush()
	fmt.Fprintln(env.Stdout, costLine(len(demo.cands), demo.embedding, timed.times))
	env.Stdout.Write(table.Bytes())
	if verbose {
		for i, r := range reports {
			fmt.Fprintf(env.Stdout, "\n%s\n%s", sets[i].Name, r)
		}
	}
	return nil
}

// writeSetRows writes the rows of one set: the scorer's figures, the BM25
// baseline's, and the scorer's on the questions asked in each language.
func writeSetRows(tw io.Writer, name string, rep, base eval.Report) {
	for i, r := range []eval.Report{rep, base} {
		name, queries, ranker := name, strconv.Itoa(r.Queries), "scorer"
		ranked, cut := fmt.Sprintf("%.3f", r.RankedNDCG10), fmt.Sprintf("%.3f", r.CutRecall)
		if i == 1 {
			name, queries, ranker, ranked, cut = "", "", "BM25", "", ""
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%.3f\t%d of %d\t%d\t%.3f\t%s\t%s\n", name, queries, ranker,
			r.Recall, r.Precision, r.NoMatch, r.OnTopic, r.OffTopicMatches, r.NDCG10, ranked, cut)
	}
	for _, lang := range []string{"en", "fr"} {
		if r := rep.ByLanguage[lang]; r != nil && len(rep.ByLanguage) > 1 {
			fmt.Fprintf(tw, "\t%d\t%s\t%.3f\t%.3f\t%d of %d\t%d\t%.3f\t%.3f\t%.3f\n", r.Queries, "scorer, "+lang,
				r.Recall, r.Precision, r.NoMatch, r.OnTopic, r.OffTopicMatches, r.NDCG10, r.RankedNDCG10, r.CutRecall)
		}
	}
}

// timedScorer is a scorer that keeps how long each Score took.
type timedScorer struct {
	search.Scorer
	times []time.Duration
}

func (t *timedScorer) Score(ctx context.Context, query string, cands []search.Candidate) ([]float64, error) {
	start := time.Now()
	rel, err := t.Scorer.Score(ctx, query, cands)
	t.times = append(t.times, time.Since(start))
	return rel, err
}

// costLine says what embedding n signals took and scoring one question
// against them (times, one per question): the median and the 90th
// percentile.
func costLine(n int, embedding time.Duration, times []time.Duration) string {
	line := fmt.Sprintf("cost: embedding the %d signals took %.2f s (%.0f signals/s)", n, embedding.Seconds(), float64(n)/embedding.Seconds())
	if len(times) == 0 {
		return line
	}
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return fmt.Sprintf("%s; scoring a question against them %.1f ms at the median, %.1f ms at the 90th percentile (%d questions)",
		line, ms(times[len(times)/2]), ms(times[len(times)*9/10]), len(times))
}

// readEvalSets reads the evaluation set in file, or the bundled sets if
// file is "".
func readEvalSets(file string) ([]eval.Named, error) {
	if file == "" {
		return eval.Sets()
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := eval.ReadSet(f)
	if err != nil {
		return nil, err
	}
	return []eval.Named{{Name: filepath.Base(file), Set: s}}, nil
}

// fitOptions are eval-search's settings of a builtin fit: the file to write
// the calibration to, if any, and whether to refine it (eval.FitBuiltin).
type fitOptions struct {
	write  string
	refine bool
	// candidate: the scorer runs a model given with --encoder, which the
	// service cannot run, so its calibration ships nowhere.
	candidate bool
}

// fitScorer fits the calibration of scorer on set and returns the scorer
// that uses it.
func fitScorer(ctx context.Context, scorer search.Scorer, cands []search.Candidate, set eval.Set, opts fitOptions, env Env) (search.Scorer, error) {
	switch s := scorer.(type) {
	case *openai.Scorer:
		return fitOpenAI(ctx, s, cands, set, env)
	case *builtin.Scorer:
		return fitBuiltin(ctx, s, cands, set, opts, env)
	case *sentence.Scorer:
		fitted, _, err := eval.FitCosine(ctx, s, cands, eval.FitHalf(set))
		if err != nil {
			return nil, err
		}
		cal := fitted.Calibration()
		fmt.Fprintf(env.Stdout, "fitted on the fit half for %s: a cosine of %s scores %.2f, slope %s\n",
			fitted.Model(), formatFloat(cal.Threshold), search.Cutoff, formatFloat(cal.Slope))
		return fitted, nil
	}
	return nil, fmt.Errorf("%w: --fit has no method for scorer %s", errUsage, scorer.Model())
}

// fitOpenAI fits the openai provider's calibration and prints the settings
// that use it.
func fitOpenAI(ctx context.Context, s *openai.Scorer, cands []search.Candidate, set eval.Set, env Env) (search.Scorer, error) {
	fitted, _, err := eval.FitCosine(ctx, s, cands, set)
	if err != nil {
		return nil, err
	}
	cal := fitted.Calibration()
	fmt.Fprintf(env.Stdout, "fitted for %s: a cosine of %s scores %.2f, slope %s; to use it:\n",
		fitted.Model(), formatFloat(cal.Threshold), search.Cutoff, formatFloat(cal.Slope))
	fmt.Fprintf(env.Stdout, "  SIGNALS_SEARCH_THRESHOLD=%s SIGNALS_SEARCH_SLOPE=%s\n",
		formatFloat(cal.Threshold), formatFloat(cal.Slope))
	return fitted, nil
}

// fitBuiltin fits the builtin calibration, prints it with its figures on
// the two halves of the set, writes it to file if file is not empty, and
// returns the scorer that uses it.
func fitBuiltin(ctx context.Context, s *builtin.Scorer, cands []search.Candidate, set eval.Set, opts fitOptions, env Env) (search.Scorer, error) {
	file := opts.write
	fit, err := eval.FitBuiltin(ctx, s, cands, set, opts.refine)
	if err != nil {
		return nil, err
	}
	enc, err := builtin.EncodeCalibration(fit.Calibration)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stdout, "fitted the builtin calibration on %d of the %d queries:\n%s", fit.FitHalf.Queries, fit.Report.Queries, enc)
	for _, h := range []struct {
		name string
		rep  eval.Report
	}{{"fit half", fit.FitHalf}, {"held out", fit.HeldOut}} {
		fmt.Fprintf(env.Stdout, "%-9s %s\n", h.name, h.rep.Summary())
	}
	if file == "" {
		switch {
		case opts.candidate:
			fmt.Fprintln(env.Stdout, "a candidate model's calibration: the service runs the bundled model only")
		case s.Encoder() != nil:
			fmt.Fprintln(env.Stdout, "to ship it: --write internal/search/sentence/bundled/calibration.json")
		default:
			fmt.Fprintln(env.Stdout, "to ship it: --write internal/search/builtin/calibration.json")
		}
		return fit.Scorer, nil
	}
	if err := os.WriteFile(file, enc, 0o644); err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", file)
	return fit.Scorer, nil
}

// candidateScorer loads the model in file for measurement, with ONNX
// Runtime from SIGNALS_ONNXRUNTIME or the usual places; langs, when not
// empty, are the languages it reads, comma-separated (sentence.Spec.Languages).
func candidateScorer(file string, alone bool, langs string, env Env) (search.Scorer, error) {
	if _, err := sentence.Load(env.Getenv(sentence.EnvRuntime)); err != nil {
		return nil, err
	}
	spec, err := sentence.SpecFromFile(file)
	if err != nil {
		return nil, err
	}
	if langs != "" {
		spec.Languages = strings.Split(langs, ",")
	}
	enc, err := sentence.Open(spec, 1)
	if err != nil {
		return nil, err
	}
	if alone {
		return sentence.NewScorer(enc, search.Calibration{Threshold: 0.5, Slope: 20})
	}
	b, err := builtin.New()
	if err != nil {
		return nil, err
	}
	return b.WithEncoder(enc, b.Calibration())
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// demoDocs loads the demo data into a scratch database and returns its
// public signals as the evaluation corpus, exactly as search sees them.
func demoDocs(ctx context.Context) ([]eval.Doc, error) {
	dir, err := os.MkdirTemp("", "signals-eval")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(ctx, dir+"/eval.db")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := importer.Import(ctx, demo.Records(), db, importer.Options{}); err != nil {
		return nil, err
	}
	list, err := db.Candidates(ctx, model.Filter{}, "", search.CandidateChars, 1<<20)
	if err != nil {
		return nil, err
	}
	docs := make([]eval.Doc, len(list))
	for i, c := range list {
		docs[i] = eval.Doc{ID: c.Signal.ID, Text: c.Signal.Text, Tag: c.Signal.Tag, Country: c.Signal.Country}
	}
	return docs, nil
}

package cli

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"signals/internal/app"
	"signals/internal/demo"
	"signals/internal/importer"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/search/builtin"
	"signals/internal/search/eval"
	"signals/internal/search/openai"
	"signals/internal/store/sqlite"
)

// evalSearch measures the configured scorer on the labelled evaluation set
// over the bundled demo data: recall of the labelled signals at the cutoff,
// precision of the matches and nDCG@10. With --fit it first fits the
// scorer's calibration on the set: the openai provider's two settings are
// printed, the builtin calibration is printed or, with --write, written to
// the file the binary embeds.
func evalSearch(ctx context.Context, args []string, env Env) error {
	c := newScratchCommand("eval-search", env)
	c.searchFlags()
	set := c.fs.String("set", "", "an evaluation set (JSON); default: the bundled sets over the demo data (eval.json and eval-asks.json)")
	verbose := c.fs.Bool("v", false, "print one line per query")
	fit := c.fs.Bool("fit", false, "fit the scorer's calibration on the set and print it")
	write := c.fs.String("write", "", "with --fit and the builtin scorer: write the calibration to this file (internal/search/builtin/calibration.json ships it)")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	if *write != "" && !*fit {
		return fmt.Errorf("%w: --write writes what --fit finds: give both", errUsage)
	}
	scorer, err := app.NewScorer(c.cfg.Search)
	if err != nil {
		return err
	}
	if _, ok := scorer.(*builtin.Scorer); *write != "" && !ok {
		return fmt.Errorf("%w: --write is for the builtin calibration; the openai one is set with SIGNALS_SEARCH_THRESHOLD and SIGNALS_SEARCH_SLOPE, which --fit prints", errUsage)
	}
	docs, err := demoDocs(ctx)
	if err != nil {
		return err
	}
	evalSet, err := readEvalSet(*set)
	if err != nil {
		return err
	}
	report, err := measure(ctx, scorer, docs, evalSet, *fit, *write, env)
	if err != nil {
		return err
	}
	if *verbose {
		fmt.Fprint(env.Stdout, report.String())
		return nil
	}
	fmt.Fprintf(env.Stdout, "scorer %s over %d public demo signals\n", report.Model, len(docs))
	fmt.Fprintf(env.Stdout, "recall at %.2f   %.3f\nprecision        %.3f\nnDCG@10          %.3f\n",
		search.Cutoff, report.Recall, report.Precision, report.NDCG10)
	return nil
}

// readEvalSet reads the evaluation set in file, or the bundled sets if
// file is "".
func readEvalSet(file string) (eval.Set, error) {
	if file == "" {
		return eval.BundledSet()
	}
	f, err := os.Open(file)
	if err != nil {
		return eval.Set{}, err
	}
	defer f.Close()
	return eval.ReadSet(f)
}

// measure evaluates scorer on set, or with fit, fits its calibration first
// and reports the fitted one.
func measure(ctx context.Context, scorer search.Scorer, docs []eval.Doc, set eval.Set, fit bool, write string, env Env) (eval.Report, error) {
	if !fit {
		return eval.EvaluateSet(ctx, scorer, docs, set)
	}
	switch s := scorer.(type) {
	case *openai.Scorer:
		return fitOpenAI(ctx, s, docs, set, env)
	case *builtin.Scorer:
		return fitBuiltin(ctx, s, docs, set, write, env)
	}
	return eval.Report{}, fmt.Errorf("%w: --fit has no method for scorer %s", errUsage, scorer.Model())
}

// fitOpenAI fits the openai provider's calibration and prints the settings
// that use it.
func fitOpenAI(ctx context.Context, s *openai.Scorer, docs []eval.Doc, set eval.Set, env Env) (eval.Report, error) {
	fitted, rep, err := eval.FitOpenAI(ctx, s, docs, set)
	if err != nil {
		return eval.Report{}, err
	}
	cal := fitted.Calibration()
	fmt.Fprintf(env.Stdout, "fitted for %s: a cosine of %s scores %.2f, slope %s; to use it:\n",
		fitted.Model(), formatFloat(cal.Threshold), search.Cutoff, formatFloat(cal.Slope))
	fmt.Fprintf(env.Stdout, "  SIGNALS_SEARCH_THRESHOLD=%s SIGNALS_SEARCH_SLOPE=%s\n",
		formatFloat(cal.Threshold), formatFloat(cal.Slope))
	return rep, nil
}

// fitBuiltin fits the builtin calibration, prints it with its figures on
// the two halves of the set, writes it to file if file is not empty, and
// returns its report on the whole set.
func fitBuiltin(ctx context.Context, s *builtin.Scorer, docs []eval.Doc, set eval.Set, file string, env Env) (eval.Report, error) {
	fit, err := eval.FitBuiltin(ctx, s, docs, set)
	if err != nil {
		return eval.Report{}, err
	}
	enc, err := builtin.EncodeCalibration(fit.Calibration)
	if err != nil {
		return eval.Report{}, err
	}
	fmt.Fprintf(env.Stdout, "fitted the builtin calibration on %d of the %d queries:\n%s", fit.FitHalf.Queries, fit.Report.Queries, enc)
	for _, h := range []struct {
		name string
		rep  eval.Report
	}{{"fit half", fit.FitHalf}, {"held out", fit.HeldOut}} {
		fmt.Fprintf(env.Stdout, "%-9s recall %.3f  precision %.3f  nDCG@10 %.3f  off-topic matches %d\n",
			h.name, h.rep.Recall, h.rep.Precision, h.rep.NDCG10, h.rep.OffTopicMatches)
	}
	if file == "" {
		fmt.Fprintln(env.Stdout, "to ship it: --write internal/search/builtin/calibration.json")
		return fit.Report, nil
	}
	if err := os.WriteFile(file, enc, 0o644); err != nil {
		return eval.Report{}, err
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", file)
	return fit.Report, nil
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

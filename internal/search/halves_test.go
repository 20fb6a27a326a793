package search

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// evalHalf is 0 for the queries the calibration is fitted on, 1 for the
// held-out queries: the parity of the FNV-1a hash of the query text.
func evalHalf(q string) int {
	h := fnv.New32a()
	h.Write([]byte(q))
	return int(h.Sum32() % 2)
}

// splitEvalSet returns the queries of one half.
func splitEvalSet(set EvalSet, half int) EvalSet {
	out := EvalSet{Description: set.Description}
	for _, q := range set.Queries {
		if evalHalf(q.Query) == half {
			out.Queries = append(out.Queries, q)
		}
	}
	return out
}

func kindSummary(rep Report, set EvalSet) string {
	type agg struct {
		hits, lab, matches, n int
		nd                    float64
	}
	m := map[string]*agg{}
	for i, r := range rep.Results {
		a := m[r.Kind]
		if a == nil {
			a = &agg{}
			m[r.Kind] = a
		}
		a.n++
		a.hits += len(r.Hits)
		a.lab += len(r.Hits) + len(r.Missed)
		a.matches += len(r.Hits) + len(r.False)
		a.nd += r.NDCG10
		_ = set.Queries[i]
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	for _, k := range ks {
		a := m[k]
		fmt.Fprintf(&b, "  %-10s q=%2d recall %3d/%3d  matches %3d  nDCG %.3f\n", k, a.n, a.hits, a.lab, a.matches, a.nd/float64(a.n))
	}
	return b.String()
}

// TestEvaluateHalves reports the builtin figures on the whole set and on
// each half. It runs only with SIGNALS_EVAL_HALVES=1.
func TestEvaluateHalves(t *testing.T) {
	if os.Getenv("SIGNALS_EVAL_HALVES") != "1" {
		t.Skip("set SIGNALS_EVAL_HALVES=1")
	}
	b := mustBuiltin(t)
	docs := demoDocs(t)
	set := readDemoEvalSet(t)
	for _, c := range []struct {
		name string
		set  EvalSet
	}{{"whole", set}, {"fit half", splitEvalSet(set, 0)}, {"held-out half", splitEvalSet(set, 1)}} {
		rep, err := EvaluateSet(context.Background(), b, docs, c.set)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: recall %.3f (%d/%d) precision %.3f (%d matches) nDCG@10 %.3f off-topic %d\n%s", c.name, rep.Recall, rep.Hits, rep.Labelled, rep.Precision, rep.Matches, rep.NDCG10, rep.OffTopicMatches, kindSummary(rep, c.set))
	}
}

// TestDumpFeatures prints features of the labelled docs and the top others.
func TestDumpFeatures(t *testing.T) {
	qf := os.Getenv("SIGNALS_DUMP")
	if qf == "" {
		t.Skip()
	}
	b := mustBuiltin(t)
	docs := demoDocs(t)
	set := readDemoEvalSet(t)
	cands, err := candidates(context.Background(), b, docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range set.Queries {
		if qf != "all" && !strings.Contains(q.Query, qf) && q.Kind != qf {
			continue
		}
		fs, _ := b.features(context.Background(), q.Query, cands, b.cal.SoftFloor, b.cal.SoftFull)
		idx := make([]int, len(cands))
		for i := range idx {
			idx[i] = i
		}
		sc := b.cal.relevance(fs)
		sort.Slice(idx, func(x, y int) bool { return sc[idx[x]] > sc[idx[y]] })
		fmt.Printf("== %s [%s]\n", q.Query, q.Kind)
		for r, i := range idx {
			rel := slices.Contains(q.Relevant, cands[i].ID)
			acc := slices.Contains(q.Acceptable, cands[i].ID)
			if r < 8 || rel {
				mark := " "
				if rel {
					mark = "R"
				} else if acc {
					mark = "a"
				}
				fmt.Printf("  %s %3d %.3f cos %.2f lex %.2f soft %.2f facet %.2f  %s\n", mark, r, sc[i], fs[i].Cos, fs[i].Lex, fs[i].Soft, fs[i].Facet, strings.ReplaceAll(cut(cands[i].Text, 110), "\n", " "))
			}
		}
	}
}

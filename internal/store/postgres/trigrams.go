package postgres

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"signals/internal/store/sqlstore"
)

// The substring index (migration 0013) holds, for each signal, keys: one
// for each distinct run of 1, 2, 3 and 5 characters of its folded columns
// joined, and one for each stretch of time its publication falls in. A
// substring of one or two characters asks for its own key, one of three or
// four for those of its runs of three, a longer one for those of its runs
// of five; a signal holding the substring holds them all.
var gramLengths = []int{1, 2, 3, 5}

// queryGramLength is the length of the runs a substring of n characters is
// looked up by.
func queryGramLength(n int) int {
	switch {
	case n >= 5:
		return 5
	case n >= 3:
		return 3
	}
	return n
}

// gramKey returns the key of a run of characters: a hash of its length and
// characters (FNV-1a over the code points, finished by fold). Two runs
// may share a key, which only adds candidates.
func gramKey(run []rune) int32 {
	return fold(mix(uint64(len(run)), run))
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func mix(seed uint64, run []rune) uint64 {
	h := uint64(fnvOffset) ^ seed
	h *= fnvPrime
	for _, r := range run {
		h ^= uint64(r)
		h *= fnvPrime
	}
	return h
}

// fold finishes a hash (MurmurHash3's fmix64), so that every bit of the
// key depends on every bit hashed, and keeps 32 bits of it.
func fold(h uint64) int32 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return int32(uint32(h))
}

// Stretches of time: a publication at ns falls in stretch ns >> shift at
// each level, the finest 2^46 ns (about 19.5 hours) long and each level 16
// times the one before (the coarsest about 9 years).
const (
	stretchShift = 46
	stretchBits  = 4
	levels       = 4
)

// stretchKey returns the key of stretch n of level. Its seed is no run's
// length, so that it is apart from the keys of runs but for collisions.
func stretchKey(level int, n int64) int32 {
	h := uint64(fnvOffset) ^ uint64(100+level)
	h *= fnvPrime
	h ^= uint64(n)
	h *= fnvPrime
	return fold(h)
}

// gramKeys returns the keys of a signal: of every run of joined (its
// folded columns joined) and of the stretches of publishedNS, sorted and
// distinct.
func gramKeys(joined string, publishedNS int64) []int32 {
	runes := []rune(joined)
	keys := make([]int32, 0, 4*len(runes)+levels)
	for _, n := range gramLengths {
		for i := 0; i+n <= len(runes); i++ {
			keys = append(keys, gramKey(runes[i:i+n]))
		}
	}
	for level := range levels {
		keys = append(keys, stretchKey(level, publishedNS>>(stretchShift+stretchBits*level)))
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// substringKeys returns the keys a signal holding the folded substring
// holds, one for each of its runs, in their order.
func substringKeys(folded string) []int32 {
	runes := []rune(folded)
	n := queryGramLength(len(runes))
	var keys []int32
	for i := 0; i+n <= len(runes); i++ {
		keys = append(keys, gramKey(runes[i:i+n]))
	}
	return keys
}

// stretchCover returns the keys of stretches that together cover the
// finest stretches from through to, inclusive: as few as the levels allow.
func stretchCover(from, to int64) []int32 {
	var keys []int32
	for level := 0; from <= to; level++ {
		if level == levels-1 {
			for n := from; n <= to; n++ {
				keys = append(keys, stretchKey(level, n))
			}
			break
		}
		const span = 1 << stretchBits
		for ; from <= to && from&(span-1) != 0; from++ {
			keys = append(keys, stretchKey(level, from))
		}
		for ; from <= to && (to+1)&(span-1) != 0; to-- {
			keys = append(keys, stretchKey(level, to))
		}
		from, to = from>>stretchBits, (to+1)>>stretchBits-1
	}
	return keys
}

// partCandidates is how many candidates a part of a listing aims at, at
// least, and the most it names is twice what the listing still wants,
// within the listing's limit.
const partCandidates = 64

// A part asks the index for every candidate after the part before,
// rather than for a stretch of time, when the sample expects at most
// globalCandidates of them and tells that naming them all costs less than
// asking for stretches of time part after part (plan): the stretches of a
// part hold signals from all over the table, so that each part reads about
// as much of the keys' lists as the whole listing does.
const globalCandidates = 20000

// pendingSQL counts the queued signals, up to $1.
const pendingSQL = `SELECT count(*) FROM (SELECT FROM signal_trigrams_pending LIMIT $1) AS queued`

// trigramCandidates implements sqlstore.Trigrams.Candidates: the signals
// holding every key that choose takes of the substring's runs, and every
// queued signal, in the listing order. Unless the sample tells that naming
// every candidate of the rest of the listing at once costs less (plan), it
// asks for the stretches of time after part.After that it expects to hold
// a part's worth (more for later rounds), and names at most that many,
// newest first, ending the part at the last it names when there were
// more. Too many queued signals, and it cannot narrow the listing down.
func (db *DB) trigramCandidates(ctx context.Context, read sqlstore.Reader, folded string, part *sqlstore.Part, limit int) ([]string, *sqlstore.Bound, bool, error) {
	want := max(partCandidates, 2*part.Want)
	if rest, ok := part.Rest.(*found); ok {
		ids, until := rest.next(part, want, limit)
		return ids, until, true, nil
	}
	var queued int
	if err := read.QueryRowContext(ctx, pendingSQL, limit).Scan(&queued); err != nil {
		return nil, nil, false, err
	}
	if queued >= limit {
		return nil, nil, false, nil
	}
	sample := db.sample.Load()
	want = min(limit-queued, want)
	keys, share, holding := sample.choose(substringKeys(folded))
	// global: the part is the rest of the listing, whose candidates the
	// index names at once; the first part may walk instead.
	walk, global := sample.plan(folded, keys, share, holding, *part, want)
	if walk > 0 {
		until, err := db.walkEnd(ctx, read, part.After, walk)
		return nil, until, false, err
	}

	// bounds are the conditions that keep the rows of table t within the
	// part: after part.After, and from its first stretch of time on.
	args := []any{keys}
	arg := func(v any) int { args = append(args, v); return len(args) }
	var bounds []string
	if b := part.After; b != nil {
		bounds = append(bounds, fmt.Sprintf(`(t.published_ns + 0, t.id) < ($%d, $%d)`, arg(b.PublishedNS), arg(b.ID)))
	}
	stretches := ""
	var until *sqlstore.Bound
	signals := float64(want) / share * math.Pow(4, float64(part.Round))
	if global {
		signals = math.Inf(1)
	}
	if from, ok := sample.rangeFrom(*part, signals); ok {
		to, err := db.newest(ctx, read, part.After)
		if err != nil {
			return nil, nil, false, err
		}
		from = from >> stretchShift << stretchShift
		until = &sqlstore.Bound{PublishedNS: from}
		stretches = fmt.Sprintf(` AND t.keys && $%d`, arg(stretchCover(from>>stretchShift, max(from, to)>>stretchShift)))
		bounds = append(bounds, fmt.Sprintf(`t.published_ns + 0 >= $%d`, arg(from)))
	}
	within := ""
	for _, b := range bounds {
		within += " AND " + b
	}
	// Without stretches of time, the part is the rest of the listing: the
	// index reads every candidate of it to sort them, and they are kept
	// when there are at most globalCandidates, to be handed out a part at
	// a time (found.next) without asking the index again.
	fetch := want
	if stretches == "" {
		fetch = globalCandidates
	}
	// Only the GIN index finds the rows: published_ns + 0 keeps the
	// planner from walking signal_grams_published instead and reading the
	// keys of each row it passes (out of line), which it would for a key
	// it cannot tell is rare.
	query := `SELECT t.id, t.published_ns + 0 AS published_ns FROM signal_grams t WHERE t.keys @> $1` + stretches + within + `
		UNION ALL SELECT t.id, t.published_ns FROM signal_trigrams_pending p JOIN signals t USING (id)
		WHERE true` + within + `
		ORDER BY published_ns DESC, id DESC LIMIT ` + strconv.Itoa(fetch+1)
	rows, err := read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, false, err
	}
	defer rows.Close()
	var all []sqlstore.Bound
	for rows.Next() {
		var b sqlstore.Bound
		if err := rows.Scan(&b.ID, &b.PublishedNS); err != nil {
			return nil, nil, false, err
		}
		all = append(all, b)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, false, err
	}
	if len(all) > fetch {
		// More than a part's worth: the part ends at the last named.
		all = all[:want]
		until = &all[want-1]
	} else if stretches == "" {
		ids, until := (&found{list: all}).next(part, want, limit)
		return ids, until, true, nil
	}
	return ids(all), until, true, nil
}

// ids returns the ids of bounds.
func ids(bounds []sqlstore.Bound) []string {
	ids := make([]string, len(bounds))
	for i, b := range bounds {
		ids[i] = b.ID
	}
	return ids
}

// found are candidates of the rest of a listing, in its order, not yet
// named, and how many candidates were named since the listing wanted
// wanted signals.
type found struct {
	list          []sqlstore.Bound
	named, wanted int
}

// next names candidates as a part, which ends at the last it names, and
// leaves the others in part.Rest for the part after it: at least want, and
// as many as those named before tell hold the signals the listing still
// wants (twice as many as before when they held none), at most limit.
func (f *found) next(part *sqlstore.Part, want, limit int) ([]string, *sqlstore.Bound) {
	if f.named == 0 {
		f.wanted = part.Want
	} else if held := f.wanted - part.Want; held > 0 {
		want = max(want, int(math.Ceil(1.25*float64(part.Want*f.named)/float64(held))))
	} else {
		want = max(want, 2*f.named)
	}
	n := min(want, limit, len(f.list))
	named := ids(f.list[:n])
	part.Rest = nil
	if n == len(f.list) {
		return named, nil
	}
	until := &f.list[n-1]
	f.list = f.list[n:]
	f.named += n
	part.Rest = f
	return named, until
}

// A listing may walk the newest signals rather than ask the index when
// the sample tells that at most walkRows of them hold a page of signals
// with the substring, and it does when that costs less (plan): walking
// reads a signal for each entry of the listing order, the index the whole
// list of each key asked. It walks twice as many as the sample expects,
// and asks the index after them. Walking a signal costs about walkCost
// candidates read.
const (
	walkRows = 2000
	walkCost = 4
)

// walk returns how many of the newest signals a listing wanting want
// signals walks, and false when it asks the index instead: when fewer than
// walkHits texts of the sample hold the substring, too few to tell how
// common it is, or when more than walkRows would hold want.
func (s *trigramSample) walk(folded string, want int) (int, bool) {
	if s == nil || s.texts == 0 {
		return 0, false
	}
	hits := 0
	for _, text := range s.joined {
		if strings.Contains(text, folded) {
			hits++
		}
	}
	expected := float64(want) * float64(s.texts) / float64(hits)
	if hits < walkHits || expected > walkRows {
		return 0, false
	}
	return int(2 * expected), true
}

// plan returns how many of the newest signals the first part of a
// listing walks (0 when it asks the index), and whether the index names
// every candidate of the rest of the listing at once rather than a part at
// a time, by what the sample tells each costs, in candidates read: reading
// the lists of keys (candidateCost entries cost about a candidate), the
// candidates, and walking (walkCost a signal). Parts of partWant
// candidates each read the keys' lists again, and the more of them, the
// fewer of the candidates hold the substring. With no sample, the index
// names every candidate.
func (s *trigramSample) plan(folded string, keys []int32, share float64, holding []int, part sqlstore.Part, partWant int) (walk int, global bool) {
	if s == nil || s.texts == 0 {
		return 0, true
	}
	lists, candidates := 0.0, share*s.rows
	for _, k := range keys {
		lists += float64(s.counts[k]) / float64(s.texts) * s.rows / candidateCost
		if s.counts[k] == 0 {
			// No text holds it: it is rarer than the sample tells.
			candidates = min(candidates, s.rows/float64(s.texts)/4)
		}
	}
	candidates *= s.after(part.After)
	// Of the candidates, about as many hold the substring as of the texts
	// holding the keys, or one in a hundred when too few texts tell.
	rate := 0.01
	if len(holding) >= 5 {
		hits := 0
		for _, i := range holding {
			if strings.Contains(s.joined[i], folded) {
				hits++
			}
		}
		rate = float64(max(hits, 1)) / float64(len(holding))
	}
	parts := 1.0
	if needed := float64(part.Want) / rate; needed > float64(partWant) {
		parts += math.Ceil(math.Log(needed/float64(partWant)) / math.Log(4))
	}
	globalCost := lists + min(candidates, globalCandidates)
	partsCost := parts * (lists + float64(partWant))
	if part.Round == 0 {
		if rows, ok := s.walk(folded, part.Want); ok && float64(rows)/2*walkCost < min(globalCost, partsCost) {
			return rows, false
		}
	}
	return 0, candidates <= globalCandidates && globalCost <= partsCost
}

// after returns the share of the sample published after b in the listing
// order (all of it when b is nil).
func (s *trigramSample) after(b *sqlstore.Bound) float64 {
	return float64(len(s.published)-s.first(b)) / float64(len(s.published))
}

// first returns the index in the sample's publication times, newest first,
// of the first published after b (0 when b is nil).
func (s *trigramSample) first(b *sqlstore.Bound) int {
	if b == nil {
		return 0
	}
	i, _ := slices.BinarySearchFunc(s.published, b.PublishedNS, func(p, ns int64) int { return cmp.Compare(ns, p) })
	return i
}

// walkHits is how many texts of the sample hold a substring, at least, for
// a listing to walk: the share of those holding it is then known within
// about a third.
const walkHits = 10

// walkEnd returns the last of the rows public signals after after (the
// newest when nil), where a walk ends, and nil when there are fewer.
func (db *DB) walkEnd(ctx context.Context, read sqlstore.Reader, after *sqlstore.Bound, rows int) (*sqlstore.Bound, error) {
	query := `SELECT published_ns, id FROM signals WHERE ` + publicOnly
	args := []any{rows - 1}
	if after != nil {
		query += ` AND (published_ns, id) < ($2, $3)`
		args = append(args, after.PublishedNS, after.ID)
	}
	var b sqlstore.Bound
	err := read.QueryRowContext(ctx, query+` ORDER BY published_ns DESC, id DESC OFFSET $1 LIMIT 1`, args...).
		Scan(&b.PublishedNS, &b.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// newest returns the publication time of the newest indexed signal after
// after (or of all, when nil), where a part's stretches of time end.
func (db *DB) newest(ctx context.Context, read sqlstore.Reader, after *sqlstore.Bound) (int64, error) {
	if after != nil {
		return after.PublishedNS, nil
	}
	var ns *int64
	err := read.QueryRowContext(ctx, `SELECT max(published_ns) FROM signal_grams`).Scan(&ns)
	if ns == nil {
		return math.MinInt64, err
	}
	return *ns, err
}

// A trigramSample counts, for each key, how many of a random sample of the
// indexed signals hold it, and keeps their publication times, newest
// first, and how many signals were indexed when it was taken.
type trigramSample struct {
	texts     int
	counts    map[int32]int32
	keys      [][]int32 // of each text, sorted
	joined    []string  // each text's folded columns, joined
	published []int64
	rows      float64
	taken     time.Time
}

// Samples: sampleTexts signals, taken again after sampleAge.
const (
	sampleTexts = 2000
	sampleAge   = 10 * time.Minute
)

// rangeFrom returns where the part after part.After that holds about
// signals signals begins, by the sample's publication times, and false
// when the rest of the listing holds fewer, or there is no sample.
func (s *trigramSample) rangeFrom(part sqlstore.Part, signals float64) (int64, bool) {
	if s == nil || s.texts == 0 || math.IsInf(signals, 0) || math.IsNaN(signals) {
		return 0, false
	}
	perText := s.rows / float64(s.texts)
	i := s.first(part.After) + int(math.Ceil(signals/perText))
	if i >= len(s.published) {
		return 0, false
	}
	return s.published[i], true
}

// sampleTrigrams counts the keys of a random sample of the indexed
// signals, whole pages of the table at a time.
func (db *DB) sampleTrigrams(ctx context.Context) error {
	var rows float64
	if err := db.pool.QueryRow(ctx, `SELECT greatest(reltuples, 0) FROM pg_class
		WHERE oid = 'signal_grams'::regclass`).Scan(&rows); err != nil {
		return err
	}
	res, err := db.pool.Query(ctx, `SELECT g.keys, g.published_ns, `+joinedColumns+`
		FROM signal_grams g TABLESAMPLE SYSTEM ((
			SELECT least(100, 100 * $1 / greatest(reltuples, 1)) FROM pg_class
			WHERE oid = 'signal_grams'::regclass)) JOIN signals s USING (id) LIMIT $1`, sampleTexts)
	if err != nil {
		return err
	}
	s := &trigramSample{counts: map[int32]int32{}, taken: time.Now()}
	var keys []int32
	var published int64
	var joined string
	_, err = pgx.ForEachRow(res, []any{&keys, &published, &joined}, func() error {
		s.texts++
		for _, k := range keys {
			s.counts[k]++
		}
		keys = slices.Clone(keys)
		slices.Sort(keys)
		s.keys = append(s.keys, keys)
		s.published = append(s.published, published)
		s.joined = append(s.joined, joined)
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(s.published, func(a, b int64) int { return cmp.Compare(b, a) })
	// reltuples lags behind the table until it is vacuumed or analyzed.
	s.rows = max(rows, float64(s.texts))
	db.sample.Store(s)
	return nil
}

// joinedColumns are a signal's folded columns joined, as its keys are
// made of (gramKeys) and the sample looks substrings up in.
const joinedColumns = `fold_text || E'\n' || fold_author || E'\n' || fold_headline`

// trigramBatch is how many queued signals one transaction indexes.
const trigramBatch = 500

// IndexTrigrams indexes every queued signal (migration 0010), in batches,
// and returns how many it indexed. The serving process runs it in the
// background; several processes may run it at once, each taking its own
// batches.
func (db *DB) IndexTrigrams(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := db.indexTrigramBatch(ctx)
		total += n
		if err == nil && n == 0 && total > 0 {
			// Merge the index's pending list (migration 0013), and
			// clear the queue's deleted rows, both of which every
			// listing by substring reads until they are.
			_, err = db.pool.Exec(ctx, `SELECT gin_clean_pending_list('signal_grams_keys'::regclass)`)
			if err == nil {
				_, err = db.pool.Exec(ctx, `VACUUM signal_trigrams_pending`)
			}
		}
		if err == nil && n == 0 {
			err = db.resample(ctx, total)
		}
		if err != nil || n == 0 {
			return total, sqlstore.Wrap("index trigrams", err)
		}
	}
}

// resample samples the keys again when there is no sample yet, when it is
// old and signals were indexed since, or when it saw no signals.
func (db *DB) resample(ctx context.Context, indexed int) error {
	s := db.sample.Load()
	if s != nil && s.texts > 0 && (indexed == 0 || time.Since(s.taken) < sampleAge) {
		return nil
	}
	return db.sampleTrigrams(ctx)
}

// indexTrigramBatch takes up to trigramBatch signals off the queue and
// indexes them in one transaction. It reads them after taking them off, so
// that a change committed since they were queued is indexed; one not
// committed yet holds its queue entry locked, and stays queued. A signal no
// longer stored leaves the queue unindexed.
func (db *DB) indexTrigramBatch(ctx context.Context) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM signal_trigrams_pending WHERE id IN (
			SELECT id FROM signal_trigrams_pending LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING id`, trigramBatch)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(ids) == 0 {
			return err
		}
		n = len(ids)
		rows, err = tx.Query(ctx, `SELECT id, published_ns, `+joinedColumns+`
			FROM signals WHERE id = ANY ($1)`, ids)
		if err != nil {
			return err
		}
		var entries [][]any
		var id, joined string
		var published int64
		_, err = pgx.ForEachRow(rows, []any{&id, &published, &joined}, func() error {
			entries = append(entries, []any{id, published, gramKeys(joined, published)})
			return nil
		})
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM signal_grams WHERE id = ANY ($1)`, ids); err != nil {
			return err
		}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"signal_grams"}, []string{"id", "published_ns", "keys"},
			pgx.CopyFromRows(entries))
		return err
	})
	return n, err
}

// choose returns the keys of a substring to look it up by, the share of
// the sample holding them all (at least one text), and the texts of the
// sample holding them. It takes the keys from the rarest in the sample on:
// each that costs the index little (a share of at most cheapShare), and
// each other that the sample tells narrows the candidates down by more
// than its list costs to read, at most maxKeys in all. With no sample,
// every key is asked and the share is 0.
func (s *trigramSample) choose(keys []int32) ([]int32, float64, []int) {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if s == nil || s.texts == 0 || len(keys) == 0 {
		return keys, 0, nil
	}
	slices.SortStableFunc(keys, func(a, b int32) int { return cmp.Compare(s.counts[a], s.counts[b]) })
	texts := float64(s.texts)
	var out []int32
	// holding are the texts of the sample holding every key of out.
	holding := make([]int, s.texts)
	for i := range holding {
		holding[i] = i
	}
	var next []int
	for _, k := range keys {
		if len(out) == maxKeys {
			break
		}
		next = next[:0]
		for _, i := range holding {
			if _, found := slices.BinarySearch(s.keys[i], k); found {
				next = append(next, i)
			}
		}
		own := float64(s.counts[k]) / texts
		if len(out) == 0 || own <= cheapShare || float64(len(holding)-len(next))/texts*candidateCost > own {
			out = append(out, k)
			holding, next = next, holding
		}
	}
	slices.Sort(out)
	return out, float64(max(1, len(holding))) / texts, holding
}

// A candidate costs the index about candidateCost times what an entry of
// a key's list does; keys held by at most cheapShare of the signals are
// always worth asking; at most maxKeys are asked.
const (
	candidateCost = 200
	cheapShare    = 0.01
	maxKeys       = 12
)

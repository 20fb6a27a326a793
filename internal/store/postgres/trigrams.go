package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"signals/internal/store/sqlstore"
)

// trigramSeparators are the characters that pg_trgm takes for word
// boundaries and substrings commonly hold: whitespace and ASCII
// punctuation, LIKE's wildcards and escape among them. The trigram index
// (migration 0010) holds its text with each of them replaced by
// trigramJoiner, a letter, and a substring is looked up the same way, so
// that trigrams span words.
const (
	trigramSeparators = " \t\n\r\v\f!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	trigramJoiner     = 'ꞏ'
)

// isSeparator tells the characters of trigramSeparators, all ASCII.
var isSeparator = func() (is [utf8.RuneSelf]bool) {
	for _, c := range []byte(trigramSeparators) {
		is[c] = true
	}
	return is
}()

// joinWords replaces each of trigramSeparators in s with trigramJoiner, for
// the index's text and for the substrings looked up in it alike.
func joinWords(s string) string {
	return strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && isSeparator[r] {
			return trigramJoiner
		}
		return r
	}, s)
}

// trigramWindows returns joined with each window of three consecutive
// characters replaced by one character: the grams column of the trigram
// index (migration 0012), whose trigrams are the 5-grams of joined. A
// string holding joined holds its windows too, so that a substring's
// windows are a substring of the windows of every text holding it; two
// windows may share a character, which only adds candidates.
func trigramWindows(joined string) string {
	var b strings.Builder
	b.Grow(3 * len(joined))
	var r0, r1 rune
	n := 0
	for _, r := range joined {
		if n >= 2 {
			b.WriteRune(windowChar(r0, r1, r))
		}
		r0, r1 = r1, r
		n++
	}
	return b.String()
}

// The characters windowChar stands a window for: the CJK Unified
// Ideographs, U+4E00 to U+9FFF, which pg_trgm counts as word characters
// under lc_ctype C.UTF-8 (as show_trgm tells), so that the windows of a
// text are one word to it.
const (
	windowBase  = 0x4E00
	windowRange = 0xA000 - windowBase
)

// windowChar returns the character that stands for the window of a, b and
// c: a hash of the three, each under 21 bits.
func windowChar(a, b, c rune) rune {
	h := (uint64(a)<<42 | uint64(b)<<21 | uint64(c)) * 0x9E3779B97F4A7C15
	return windowBase + rune((h>>32)%windowRange)
}

// Before the index is asked, the newest probeRows public signals are
// checked for the substring: when probeMatches of them hold it, walking the
// listing order finds a page within about as many rows, sooner than the
// index could count the candidates.
const (
	probeRows    = 500
	probeMatches = 21
)

// probeSQL counts up to $3 of the newest $2 public signals holding $1.
const probeSQL = `SELECT count(*) FROM (
	SELECT FROM (SELECT fold_text, fold_author, fold_headline FROM signals
		WHERE status = 'public' AND NOT market_only
		ORDER BY published_ns DESC, id DESC LIMIT $2) AS newest
	WHERE strpos(fold_text, $1) > 0 OR strpos(fold_author, $1) > 0 OR strpos(fold_headline, $1) > 0
	LIMIT $3) AS found`

// The candidates of a substring: the indexed signals whose joined text
// holds it ($1), or for one or two characters, every one of its characters;
// and every signal not indexed yet. $2 is the limit. pieceSQL narrows the
// first query down in the trigram index, each piece one trigram of a column:
// of fold, or of grams, a 5-gram of fold.
const (
	likeCandidatesSQL = `SELECT id FROM signal_trigrams WHERE %s strpos(fold, $1) > 0
		UNION ALL SELECT id FROM signal_trigrams_pending LIMIT $2`
	pieceSQL          = `%s LIKE $%d AND `
	charCandidatesSQL = `SELECT id FROM signal_trigrams WHERE chars @> $1::text[]
		UNION ALL SELECT id FROM signal_trigrams_pending LIMIT $2`
)

// trigramCandidates implements sqlstore.Trigrams.Candidates: none when the
// newest signals show the substring to be common, or hold it and the sample
// shows its n-grams to be common; otherwise the index's candidates, by
// 5-grams for five characters or more, by trigrams for three or four. They
// are exact but for separators (and, for two characters, their order),
// which the listing's own check settles.
func (db *DB) trigramCandidates(ctx context.Context, read sqlstore.Reader, folded string, limit int) ([]string, bool, error) {
	var found int
	if err := read.QueryRowContext(ctx, probeSQL, folded, probeRows, probeMatches).Scan(&found); err != nil {
		return nil, false, err
	}
	if found >= probeMatches {
		return nil, false, nil
	}
	query, args := charCandidatesSQL, []any{strings.Split(folded, ""), limit + 1}
	if n := utf8.RuneCountInString(folded); n >= 3 {
		joined := joinWords(folded)
		column, grams, sample := "fold", joined, db.sample.Load()
		if n >= 5 {
			column, grams = "grams", trigramWindows(joined)
		}
		pieces, common := sample.pieces(grams, column == "grams")
		if common && found > 0 {
			return nil, false, nil
		}
		if common {
			// Common trigrams, but none of the newest signals holds the
			// substring: it is rare, or held by none, so that the walk
			// could read every signal. Every trigram together narrows it
			// down most.
			pieces = []string{grams}
		}
		var where strings.Builder
		args = []any{joined, limit + 1}
		for _, p := range pieces {
			args = append(args, "%"+p+"%")
			fmt.Fprintf(&where, pieceSQL, column, len(args))
		}
		query = fmt.Sprintf(likeCandidatesSQL, where.String())
	}
	rows, err := read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, false, err
	}
	return sqlstore.ReadKeys(rows, limit)
}

// A trigramSample counts, for each trigram and each 5-gram (as a trigram of
// trigramWindows) of the indexed texts, how many of a random sample of them
// hold it.
type trigramSample struct {
	texts     int
	counts    map[string]int
	fiveGrams map[string]int
	taken     time.Time
}

// Trigram samples: sampleTexts texts, taken again after sampleAge; a
// substring is looked up by its pieces rarest trigrams. A trigram in more
// than maxPieceShare of the texts is common: the index reads a long list
// for it.
const (
	sampleTexts   = 2000
	sampleAge     = 10 * time.Minute
	pieces        = 3
	maxPieceShare = 0.05
)

// pieces returns the trigrams of text to ask the index for, its rarest,
// and whether even the rarest is too common for reading its list to pay.
// text is a joined substring, or its windows when fiveGrams is set. With no
// sample, every trigram is rare.
func (s *trigramSample) pieces(text string, fiveGrams bool) (out []string, common bool) {
	grams := trigrams(text)
	if s == nil || s.texts == 0 {
		return grams[:min(pieces, len(grams))], false
	}
	counts := s.counts
	if fiveGrams {
		counts = s.fiveGrams
	}
	slices.SortStableFunc(grams, func(a, b string) int { return cmp.Compare(counts[a], counts[b]) })
	return grams[:min(pieces, len(grams))], float64(counts[grams[0]]) > maxPieceShare*float64(s.texts)
}

// trigrams returns the distinct windows of three characters of s.
func trigrams(s string) []string {
	var out []string
	seen := map[string]bool{}
	for i := range s {
		rest := s[i:]
		end := 0
		for range 3 {
			if end == len(rest) {
				return out
			}
			_, n := utf8.DecodeRuneInString(rest[end:])
			end += n
		}
		if g := rest[:end]; !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// sampleTrigrams counts the trigrams and 5-grams of a random sample of the
// indexed texts, whole pages of the table at a time.
func (db *DB) sampleTrigrams(ctx context.Context) error {
	rows, err := db.pool.Query(ctx, `SELECT fold FROM signal_trigrams TABLESAMPLE SYSTEM ((
		SELECT least(100, 100 * $1 / greatest(reltuples, 1)) FROM pg_class
		WHERE oid = 'signal_trigrams'::regclass)) LIMIT $1`, sampleTexts)
	if err != nil {
		return err
	}
	s := &trigramSample{counts: map[string]int{}, fiveGrams: map[string]int{}, taken: time.Now()}
	var fold string
	_, err = pgx.ForEachRow(rows, []any{&fold}, func() error {
		s.texts++
		for _, g := range trigrams(fold) {
			s.counts[g]++
		}
		for _, g := range trigrams(trigramWindows(fold)) {
			s.fiveGrams[g]++
		}
		return nil
	})
	if err == nil {
		db.sample.Store(s)
	}
	return err
}

// trigramBatch is how many queued signals one transaction indexes.
const trigramBatch = 500

// indexTrigramsSQL writes the index entries of signals: ids ($1), their
// joined texts ($2), the distinct characters of each as one string ($3) and
// the windows of each joined text ($4).
const indexTrigramsSQL = `INSERT INTO signal_trigrams (id, fold, chars, grams)
	SELECT id, fold, string_to_array(chars, NULL), grams
	FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS e (id, fold, chars, grams)
	ON CONFLICT (id) DO UPDATE SET fold = excluded.fold, chars = excluded.chars, grams = excluded.grams`

// IndexTrigrams indexes every queued signal (migration 0010), in batches,
// and returns how many it indexed. The serving process runs it in the
// background; several processes may run it at once, each taking its own
// batches.
func (db *DB) IndexTrigrams(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := db.indexTrigramBatch(ctx)
		total += n
		if err == nil && n == 0 {
			err = db.resample(ctx, total)
		}
		if err != nil || n == 0 {
			return total, sqlstore.Wrap("index trigrams", err)
		}
	}
}

// resample samples the trigrams again when there is no sample yet, when it
// is old and signals were indexed since, or when it saw no texts.
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
		rows, err = tx.Query(ctx, `SELECT id, fold_text || E'\n' || fold_author || E'\n' || fold_headline
			FROM signals WHERE id = ANY ($1)`, ids)
		if err != nil {
			return err
		}
		var found, folds, chars, grams []string
		var id, joined string
		_, err = pgx.ForEachRow(rows, []any{&id, &joined}, func() error {
			fold := joinWords(joined)
			found = append(found, id)
			folds = append(folds, fold)
			chars = append(chars, distinctChars(joined))
			grams = append(grams, trigramWindows(fold))
			return nil
		})
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, indexTrigramsSQL, found, folds, chars, grams)
		return err
	})
	return n, err
}

// distinctChars returns each character of s once, in their first order.
func distinctChars(s string) string {
	seen := make(map[rune]bool, 64)
	var b strings.Builder
	for _, r := range s {
		if !seen[r] {
			seen[r] = true
			b.WriteRune(r)
		}
	}
	return b.String()
}

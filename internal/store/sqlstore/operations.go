package sqlstore

import "context"

// SignalsWithoutVectors counts public signals that have no current vector
// under vectorModel: the ones waiting to be embedded.
func (q *Queries) SignalsWithoutVectors(ctx context.Context, vectorModel string) (int, error) {
	var n int
	err := q.queryRow(ctx, `SELECT count(*) FROM signals WHERE `+q.dialect.PublicOnly+
		` AND NOT EXISTS (SELECT 1 FROM signal_vectors v WHERE `+q.currentVector()+`)`, vectorModel).Scan(&n)
	return n, Wrap("signals without vectors", err)
}

package redis

import (
	"context"
	"crypto/rand"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/redis/rueidis"
)

var errUnexpected = errors.New("unexpected answer from Redis")

// acquireScript drops the leases of KEYS[1] that ended by ARGV[1] (Unix
// milliseconds) and adds lease ARGV[4] ending at ARGV[2] if fewer than
// ARGV[3] remain; the set lives as long as its longest lease (ARGV[5]
// milliseconds from now, at least).
var acquireScript = rueidis.NewLuaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then
	redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
return 1`)

// AcquireSearchSlot takes one of the account's concurrent search slots,
// shared by every process on this Redis, until release or the end of the
// lease.
func (r *Store) AcquireSearchSlot(ctx context.Context, accountID int64, most int, now time.Time, lease time.Duration) (func(), bool, error) {
	token := rand.Text()
	key := r.slotsKey(accountID)
	octx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	ok, err := acquireScript.Exec(octx, r.client, []string{key}, []string{itoa(now.UnixMilli()),
		itoa(now.Add(lease).UnixMilli()), strconv.Itoa(most), token, itoa(max(lease.Milliseconds(), 1))}).AsInt64()
	if err != nil {
		return nil, false, wrap("acquire search slot", err)
	}
	if ok == 0 {
		return nil, false, nil
	}
	var once sync.Once
	release := func() {
		// Best effort: if it fails, the lease runs out anyway.
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
			defer cancel()
			r.client.Do(ctx, r.client.B().Zrem().Key(key).Member(token).Build())
		})
	}
	return release, true, nil
}

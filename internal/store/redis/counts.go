package redis

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"

	"signals/internal/model"
)

// An account's hash holds its windows as the SQL stores' usage row does:
// ms and m are the minute window's start (Unix seconds) and count, ds and d
// the day's, ss and s the search day's. A window never moves backwards, so
// a replica whose clock lags a little counts into the newer window rather
// than resetting it.

// readWindows is the start of every counting script: it reads the hash of
// KEYS[1] and the counts in the windows of now (ARGV[1] minute, ARGV[2]
// day): cm, cd and cs.
const readWindows = `
local f = redis.call('HMGET', KEYS[1], 'ms', 'm', 'ds', 'd', 'ss', 's')
local ms, m, ds, d, ss, s = tonumber(f[1]) or 0, tonumber(f[2]) or 0, tonumber(f[3]) or 0,
	tonumber(f[4]) or 0, tonumber(f[5]) or 0, tonumber(f[6]) or 0
local minute, day = tonumber(ARGV[1]), tonumber(ARGV[2])
local cm = ms >= minute and m or 0
local cd = ds >= day and d or 0
local cs = ss >= day and s or 0
`

// keepForTheDay makes KEYS[1] expire an hour after the end of its newest
// day window, counted from the caller's now (ARGV[3], Unix seconds): its
// counts mean nothing after that. Only a script that moves the newest day
// window (a fresh hash, or a new day) moves the expiry, since the hash's
// writes keep it: the other counts leave it be and cost Redis one command
// less.
const keepForTheDay = `
local newest = math.max(ds, ss, day)
if newest > math.max(ds, ss) then
	redis.call('EXPIRE', KEYS[1], math.max(newest + 86400 + 3600 - tonumber(ARGV[3]), 1))
end
`

// takeScript counts one request if the day (ARGV[4]) and minute (ARGV[5])
// limits allow it, the day first; a refused request writes nothing. Within
// the hash's minute and day, the usual case, it writes the two counts
// alone: Redis then changes, and appends to its log, a third of what
// moving the windows takes.
var takeScript = rueidis.NewLuaScript(readWindows + `
if cd >= tonumber(ARGV[4]) then return {cm, cd, cs, 'day'} end
if cm >= tonumber(ARGV[5]) then return {cm, cd, cs, 'minute'} end
cm, cd = cm + 1, cd + 1
if ms >= minute and ds >= day then
	redis.call('HSET', KEYS[1], 'm', cm, 'd', cd)
	return {cm, cd, cs, ''}
end
redis.call('HSET', KEYS[1], 'ms', math.max(ms, minute), 'm', cm, 'ds', math.max(ds, day), 'd', cd,
	'ss', math.max(ss, day), 's', cs)
` + keepForTheDay + `
return {cm, cd, cs, ''}`)

// reserveScript takes one fresh search of the day if fewer than ARGV[4]
// were taken.
var reserveScript = rueidis.NewLuaScript(readWindows + `
if cs >= tonumber(ARGV[4]) then return {cm, cd, cs, 'search_day'} end
cs = cs + 1
redis.call('HSET', KEYS[1], 'ss', math.max(ss, day), 's', cs)
` + keepForTheDay + `
return {cm, cd, cs, ''}`)

// giveBackScript gives back one request counted in the minute ARGV[3] and
// the day ARGV[4], and one search reserved in the day ARGV[5], in each of
// those windows that is still the hash's current one ("" gives nothing
// back there), and returns the counts in the windows of now.
var giveBackScript = rueidis.NewLuaScript(readWindows + `
local function back(start, count, at, field)
	if at ~= '' and start == tonumber(at) and count > 0 then
		redis.call('HSET', KEYS[1], field, count - 1)
		return count - 1
	end
	return count
end
m = back(ms, m, ARGV[3], 'm')
d = back(ds, d, ARGV[4], 'd')
s = back(ss, s, ARGV[5], 's')
return {ms >= minute and m or 0, ds >= day and d or 0, ss >= day and s or 0, ''}`)

// TakeRequest counts one request in Redis if the account is under both
// limits, in one script: one round trip.
func (r *Store) TakeRequest(ctx context.Context, accountID int64, l model.Limits, now time.Time) (model.Usage, error) {
	return r.run(ctx, "take request", takeScript, accountID, now, itoa(now.Unix()), itoa(int64(l.DailyRequests)), itoa(int64(l.MinuteRequests)))
}

// ReturnRequest gives back one request counted at at.
func (r *Store) ReturnRequest(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return r.run(ctx, "return request", giveBackScript, accountID, now,
		itoa(model.MinuteOf(at).Unix()), itoa(model.DayOf(at).Unix()), "")
}

// ReserveSearch takes one fresh search of the account's UTC day.
func (r *Store) ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error) {
	return r.run(ctx, "reserve search", reserveScript, accountID, now, itoa(now.Unix()), itoa(int64(dailyLimit)))
}

// ReturnSearch gives back one fresh search reserved at at.
func (r *Store) ReturnSearch(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return r.run(ctx, "return search", giveBackScript, accountID, now, "", "", itoa(model.DayOf(at).Unix()))
}

// run runs script on the account's hash with the windows of now, then
// args, and reads the counts and the refusal it returns.
func (r *Store) run(ctx context.Context, op string, script *rueidis.Lua, accountID int64, now time.Time, args ...string) (model.Usage, error) {
	u := model.Usage{MinuteStart: model.MinuteOf(now), DayStart: model.DayOf(now)}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	res, err := script.Exec(ctx, r.client, []string{r.accountKey(accountID)},
		append([]string{itoa(u.MinuteStart.Unix()), itoa(u.DayStart.Unix())}, args...)).ToArray()
	if err != nil {
		return model.Usage{}, wrap(op, err)
	}
	if len(res) != 4 {
		return model.Usage{}, wrap(op, errUnexpected)
	}
	u.MinuteUsed, u.DayUsed, u.SearchesUsed = toInt(res[0]), toInt(res[1]), toInt(res[2])
	u.Denied, _ = res[3].ToString()
	return u, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Usage reads the account's counts in the windows of now, without
// counting.
func (r *Store) Usage(ctx context.Context, accountID int64, now time.Time) (model.Usage, error) {
	u := model.Usage{MinuteStart: model.MinuteOf(now), DayStart: model.DayOf(now)}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	f, err := r.client.Do(ctx, r.client.B().Hmget().Key(r.accountKey(accountID)).
		Field("ms", "m", "ds", "d", "ss", "s").Build()).ToArray()
	if err != nil {
		return model.Usage{}, wrap("read usage", err)
	}
	if len(f) != 6 {
		return model.Usage{}, wrap("read usage", errUnexpected)
	}
	minute, day := u.MinuteStart.Unix(), u.DayStart.Unix()
	if int64(toInt(f[0])) >= minute {
		u.MinuteUsed = toInt(f[1])
	}
	if int64(toInt(f[2])) >= day {
		u.DayUsed = toInt(f[3])
	}
	if int64(toInt(f[4])) >= day {
		u.SearchesUsed = toInt(f[5])
	}
	return u, nil
}

// toInt reads an integer that Redis returned as a number or a string (a
// hash field); anything else, a missing field included, is 0.
func toInt(m rueidis.RedisMessage) int {
	n, _ := m.AsInt64()
	return int(n)
}

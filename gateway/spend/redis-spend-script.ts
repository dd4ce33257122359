/**
 * The spend store's operations in Lua, run atomically by Redis (EVALSHA), so no two workers can both take the last
 * dollars of a cap. Keep in step with spend-refusal.ts, spend-windows.ts and local-spend-store.ts:
 * test/integration/spend-caps-redis runs the same scenarios against both stores.
 *
 * The time is Redis's own (TIME), so every worker's holds expire on one clock and a skewed worker clock cannot
 * shorten another's hold or move a settle into another day; ARGV[2] overrides it only for tests.
 *
 * Every operation costs the same whatever the number of holds (test/integration/spend-store-work.test.ts): the
 * held sum is kept as a running total, holds expire through a sorted set by expiry from which only the expired ones
 * are read (at most EXPIRE_BATCH per call, each hold once in its life), and every other read is by id.
 *
 * A hold that expires unsettled counts as spent at its amount (expireHolds): its worker died, and the provider may
 * have billed the call all the same.
 *
 * KEYS (one tenant, one hash tag, so one Redis Cluster slot)
 *   1 holds     sorted set: hold id, score = expiry (epoch ms)
 *   2 amounts   hash: hold id → USD held
 *   3 held      string: the sum of amounts (kept with them, reset when no hold is left)
 *   4 totals    hash: `day:YYYY-MM-DD` and `month:YYYY-MM` → USD settled or counted at a hold's expiry (days kept DAYS_KEPT, months MONTHS_KEPT)
 *   5 settled   sorted set: hold id, score = when it was settled (kept SETTLED_KEPT_MS): a settle counts once per id
 *   6 expired   hash: hold id → USD counted when it expired unsettled (kept SETTLED_KEPT_MS), so a late settle
 *               replaces that amount by the real cost instead of adding to it
 *   7 expiredAt sorted set: the same ids, score = when they expired, from which entries older than SETTLED_KEPT_MS
 *               are let go (at most EXPIRE_BATCH per call), as settled ids are
 * ARGV     op, now ('' = Redis TIME), then per op:
 *   hold        usd, daily cap ('' = none), month cap ('' = none), hold id, ttl ms, keyed ('1': a hold already held
 *               under that id is granted again with its amount)
 *               → {'granted'} | {'held', usd} | {'refused', window, cap, spent+held, resumesAt}
 *   settle      hold id, usd → {'ok', day, month} | {'settled', day, month} (that id was counted already)
 *   totals      day field, month field → {'totals', day, month, held}
 * Every reply ends with the script's work: the Redis commands it called plus the elements they returned.
 * Numbers travel as strings (%.17g): Redis would truncate Lua numbers to integers.
 */
export const SPEND_SCRIPT = String.raw`
local holdsKey, amountsKey, heldKey, totalsKey, settledKey, expiredKey, expiredAtKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local op = ARGV[1]
local DAY_MS = 86400000
local EXPIRE_BATCH = 100
local SETTLED_KEPT_MS = 24 * 3600000
local DAYS_KEPT = 62
local MONTHS_KEPT = 13
local TOTALS_KEPT_MS = 400 * DAY_MS

local work = 0
local function call(...)
  local reply = redis.call(...)
  work = work + 1
  if type(reply) == 'table' then work = work + #reply end
  return reply
end
local function num(x) return string.format('%.17g', x) end
local function reply(t)
  t[#t + 1] = work
  return t
end

local now = tonumber(ARGV[2])
if not now then
  local time = call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- Days since 1970-01-01 to a civil date and back (proleptic Gregorian, as JavaScript's Date).
local function civil(days)
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return y, m, d
end
local function daysFrom(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = math.floor((153 * mp + 2) / 5) + d - 1
  return era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
end
local function dayField(days)
  local y, m, d = civil(days)
  return string.format('day:%04d-%02d-%02d', y, m, d)
end
local function monthField(y, m)
  while m < 1 do y, m = y - 1, m + 12 end
  return string.format('month:%04d-%02d', y, m)
end

local today = math.floor(now / DAY_MS)
local year, month = civil(today)
local day = { field = dayField(today), ends = (today + 1) * DAY_MS }
local nextYear, nextMonth = year, month + 1
if nextMonth > 12 then nextYear, nextMonth = year + 1, 1 end
local thisMonth = { field = monthField(year, month), ends = daysFrom(nextYear, nextMonth, 1) * DAY_MS }


-- Adds usd (a string, possibly negative) to the current day's and month's totals; answers both.
local function count(usd)
  local newDay = call('HEXISTS', totalsKey, day.field) == 0
  local dayTotal = call('HINCRBYFLOAT', totalsKey, day.field, usd)
  local monthTotal = call('HINCRBYFLOAT', totalsKey, thisMonth.field, usd)
  if newDay then
    -- Once a day per tenant: old windows are dropped, so the hash stays a few dozen fields.
    local oldestDay, oldestMonth = dayField(today - DAYS_KEPT), monthField(year, month - MONTHS_KEPT)
    for _, field in ipairs(call('HKEYS', totalsKey)) do
      local kind = string.sub(field, 1, 4)
      if (kind == 'day:' and field < oldestDay) or (kind == 'mont' and field < oldestMonth) then call('HDEL', totalsKey, field) end
    end
  end
  call('PEXPIRE', totalsKey, TOTALS_KEPT_MS)
  return dayTotal, monthTotal
end

-- A hold nobody settled in its time to live (its worker died, perhaps after the provider had answered) counts as
-- spent at its amount, the most the call could cost: money the provider may have billed is never forgotten. A settle
-- that comes later (a deferred one) replaces that amount by the real cost.
local function expireHolds()
  local forgotten = call('ZRANGEBYSCORE', expiredAtKey, '-inf', now - SETTLED_KEPT_MS, 'LIMIT', 0, EXPIRE_BATCH)
  if #forgotten > 0 then
    call('ZREM', expiredAtKey, unpack(forgotten))
    call('HDEL', expiredKey, unpack(forgotten))
  end
  local expired = call('ZRANGEBYSCORE', holdsKey, '-inf', now, 'LIMIT', 0, EXPIRE_BATCH)
  if #expired == 0 then return end
  local sum = 0
  local counted = {}
  local at = {}
  for i, amount in ipairs(call('HMGET', amountsKey, unpack(expired))) do
    local usd = tonumber(amount) or 0
    sum = sum + usd
    counted[#counted + 1] = expired[i]
    counted[#counted + 1] = num(usd)
    at[#at + 1] = now
    at[#at + 1] = expired[i]
  end
  call('ZREM', holdsKey, unpack(expired))
  call('HDEL', amountsKey, unpack(expired))
  call('INCRBYFLOAT', heldKey, num(-sum))
  if sum > 0 then count(num(sum)) end
  call('HSET', expiredKey, unpack(counted))
  call('ZADD', expiredAtKey, unpack(at))
  call('PEXPIRE', expiredKey, SETTLED_KEPT_MS)
  call('PEXPIRE', expiredAtKey, SETTLED_KEPT_MS)
end

local function heldNow()
  if call('ZCARD', holdsKey) == 0 then
    -- Rounding of a running float sum must not outlive the holds it summed.
    call('DEL', heldKey)
    return 0
  end
  return math.max(0, tonumber(call('GET', heldKey)) or 0)
end

local function dropHold(id, amount)
  call('ZREM', holdsKey, id)
  call('HDEL', amountsKey, id)
  call('INCRBYFLOAT', heldKey, num(-tonumber(amount)))
end

if op == 'hold' then
  local usd, id, ttl, keyed = tonumber(ARGV[3]), ARGV[6], tonumber(ARGV[7]), ARGV[8] == '1'
  expireHolds()
  if keyed then
    local amount = call('HGET', amountsKey, id)
    if amount then return reply({ 'held', amount }) end
  end
  local held = heldNow()
  local spent = call('HMGET', totalsKey, day.field, thisMonth.field)
  local windows = {
    { name = 'month', spent = spent[2], cap = tonumber(ARGV[5]), ends = thisMonth.ends },
    { name = 'day', spent = spent[1], cap = tonumber(ARGV[4]), ends = day.ends },
  }
  for _, w in ipairs(windows) do
    if w.cap then
      local used = (tonumber(w.spent) or 0) + held
      if used > 0 and used + usd > w.cap then
        return reply({ 'refused', w.name, num(w.cap), num(used), num(w.ends) })
      end
    end
  end
  call('ZADD', holdsKey, now + ttl, id)
  call('HSET', amountsKey, id, ARGV[3])
  call('INCRBYFLOAT', heldKey, ARGV[3])
  -- The hold keys live as long as the longest hold (a batch entry's outlives a live call's).
  local last = call('ZRANGE', holdsKey, -1, -1, 'WITHSCORES')
  local until_ = math.max(now + ttl, tonumber(last[2]))
  call('PEXPIREAT', holdsKey, until_)
  call('PEXPIREAT', amountsKey, until_)
  call('PEXPIREAT', heldKey, until_)
  return reply({ 'granted' })
end

if op == 'settle' then
  local id, usd = ARGV[3], ARGV[4]
  expireHolds()
  local forgotten = call('ZRANGEBYSCORE', settledKey, '-inf', now - SETTLED_KEPT_MS, 'LIMIT', 0, EXPIRE_BATCH)
  if #forgotten > 0 then call('ZREM', settledKey, unpack(forgotten)) end
  if call('ZSCORE', settledKey, id) then
    local totals = call('HMGET', totalsKey, day.field, thisMonth.field)
    return reply({ 'settled', totals[1] or '0', totals[2] or '0' })
  end
  local amount = call('HGET', amountsKey, id)
  if amount then dropHold(id, amount) end
  local counted = call('HGET', expiredKey, id)
  if counted then
    call('HDEL', expiredKey, id)
    call('ZREM', expiredAtKey, id)
    usd = num(tonumber(usd) - tonumber(counted))
  end
  local dayTotal, monthTotal = count(usd)
  call('ZADD', settledKey, now, id)
  call('PEXPIRE', settledKey, SETTLED_KEPT_MS)
  return reply({ 'ok', dayTotal, monthTotal })
end

if op == 'totals' then
  expireHolds()
  local totals = call('HMGET', totalsKey, ARGV[3], ARGV[4])
  return reply({ 'totals', totals[1] or '0', totals[2] or '0', num(heldNow()) })
end
return redis.error_reply('unknown op ' .. tostring(op))
`;

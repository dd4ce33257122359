/**
 * The spend store's two operations in Lua, run atomically by Redis (EVALSHA), so no two workers can both take the
 * last dollars of a cap. Keep in step with spend-refusal.ts and local-spend-store.ts: test/integration/spend-caps-redis
 * runs the same scenario against both.
 *
 * KEYS     the day's total, the month's total, the tenant's holds (a sorted set: member `<id>|<usd>`, score = expiry)
 * ARGV     op, now (epoch ms), then per op:
 *   hold    usd, daily cap ('' = none), month cap ('' = none), hold member, hold expiry, day end, month end,
 *           keyed id ('' = none: a keyed hold already held is granted again, with its amount)
 *           → {'granted'} | {'held', usd} | {'refused', window, cap, spent+held, resumesAt}
 *   settle  usd, hold member, day key TTL s, month key TTL s → {'ok', day total, month total}
 *   settleHeld  as settle, but only a hold still held is counted → {'ok', …} | {'gone'}
 * Numbers travel as strings (%.17g): Redis would truncate Lua numbers to integers.
 */
export const SPEND_SCRIPT = String.raw`
local dayKey, monthKey, holdsKey = KEYS[1], KEYS[2], KEYS[3]
local op = ARGV[1]
local now = tonumber(ARGV[2])
local function num(x) return string.format('%.17g', x) end

redis.call('ZREMRANGEBYSCORE', holdsKey, '-inf', now)

if op == 'hold' then
  local usd = tonumber(ARGV[3])
  local keyedId = ARGV[10]
  local held = 0
  for _, member in ipairs(redis.call('ZRANGE', holdsKey, 0, -1)) do
    local id, amount = string.match(member, '^(.*)|(.*)$')
    if keyedId ~= nil and keyedId ~= '' and id == keyedId then return { 'held', amount } end
    held = held + tonumber(amount)
  end
  local windows = {
    { name = 'month', key = monthKey, cap = tonumber(ARGV[5]), ends = ARGV[9] },
    { name = 'day', key = dayKey, cap = tonumber(ARGV[4]), ends = ARGV[8] },
  }
  for _, w in ipairs(windows) do
    if w.cap then
      local used = (tonumber(redis.call('GET', w.key)) or 0) + held
      if used > 0 and used + usd > w.cap then
        return { 'refused', w.name, num(w.cap), num(used), w.ends }
      end
    end
  end
  redis.call('ZADD', holdsKey, tonumber(ARGV[7]), ARGV[6])
  -- The set lives as long as its longest hold (a batch entry's outlives a live call's).
  local last = redis.call('ZRANGE', holdsKey, -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', holdsKey, math.max(tonumber(ARGV[7]), tonumber(last[2])))
  return { 'granted' }
end

if op == 'settle' or op == 'settleHeld' then
  local removed = redis.call('ZREM', holdsKey, ARGV[4])
  if op == 'settleHeld' and removed == 0 then return { 'gone' } end
  local day = redis.call('INCRBYFLOAT', dayKey, ARGV[3])
  redis.call('EXPIRE', dayKey, tonumber(ARGV[5]))
  local month = redis.call('INCRBYFLOAT', monthKey, ARGV[3])
  redis.call('EXPIRE', monthKey, tonumber(ARGV[6]))
  return { 'ok', day, month }
end
return redis.error_reply('unknown op ' .. tostring(op))
`;

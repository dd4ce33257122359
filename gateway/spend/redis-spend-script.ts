/**
 * The spend store's two operations in Lua, run atomically by Redis (EVALSHA), so no two workers can both take the
 * last dollars of a cap. Keep in step with spend-refusal.ts and local-spend-store.ts: test/integration/spend-caps-redis
 * runs the same scenario against both.
 *
 * KEYS     the day's total, the month's total, the tenant's holds (a sorted set: member `<id>|<usd>`, score = expiry)
 * ARGV     op, now (epoch ms), then per op:
 *   hold    usd, daily cap ('' = none), month cap ('' = none), hold member, hold expiry, day end, month end
 *           → {'granted'} | {'refused', window, cap, spent+held, resumesAt}
 *   settle  usd, hold member, day key TTL s, month key TTL s → {'ok', day total, month total}
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
  local held = 0
  for _, member in ipairs(redis.call('ZRANGE', holdsKey, 0, -1)) do
    held = held + tonumber(string.match(member, '|(.*)$'))
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
  redis.call('PEXPIREAT', holdsKey, tonumber(ARGV[7]))
  return { 'granted' }
end

if op == 'settle' then
  redis.call('ZREM', holdsKey, ARGV[4])
  local day = redis.call('INCRBYFLOAT', dayKey, ARGV[3])
  redis.call('EXPIRE', dayKey, tonumber(ARGV[5]))
  local month = redis.call('INCRBYFLOAT', monthKey, ARGV[3])
  redis.call('EXPIRE', monthKey, tonumber(ARGV[6]))
  return { 'ok', day, month }
end
return redis.error_reply('unknown op ' .. tostring(op))
`;

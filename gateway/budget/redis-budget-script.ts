/**
 * bucket-math.ts in Lua, run atomically by Redis (EVALSHA), so every worker process of the fleet draws from
 * one budget and no two can spend the same tokens. Keep the two in step: test/integration/gateway-redis-budget
 * runs the same scenario against this script and the in-process budget and expects identical numbers.
 *
 * KEYS[1]  the pool's hash
 * ARGV     op, now (epoch ms, '' = Redis server time), input/output/request limits per minute, interactive
 *          share, idle TTL in ms, interactive idle share, its decay time constant in ms, then per op:
 *   wait    priority, cost input, output, requests          → {'wait', waitMs, limitedBy}
 *   reserve priority, cost input, output, requests          → {'granted', 6 taken parts} | {'wait', waitMs, limitedBy}
 *   settle  priority, 6 taken parts, used input, output, requests → {'ok'}
 *   observe limit and remaining for input, output, requests ('' = not given), pause ms ('' = none) → {'ok'}
 * Numbers travel as strings (%.17g): Redis would truncate Lua numbers to integers.
 */
export const BUDGET_SCRIPT = String.raw`
local DIMS = {'input', 'output', 'requests'}
local key = KEYS[1]
local op = ARGV[1]
local now = tonumber(ARGV[2])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local configured = { input = tonumber(ARGV[3]), output = tonumber(ARGV[4]), requests = tonumber(ARGV[5]) }
local busyShare = tonumber(ARGV[6])
local ttl = tonumber(ARGV[7])
local idleShare = math.min(busyShare, tonumber(ARGV[8]))
local decayMs = math.max(1, tonumber(ARGV[9]))
local PER_MINUTE = 60000

local function num(x) return string.format('%.17g', x) end

local raw = redis.call('HGETALL', key)
local h = {}
for i = 1, #raw, 2 do h[raw[i]] = raw[i + 1] end

local reserve, shared, learned = {}, {}, {}
local updatedAt, pausedUntil
local interactiveSeenAt = tonumber(h['i'])
for _, d in ipairs(DIMS) do learned[d] = tonumber(h['l_' .. d]) end
if h['t'] == nil then
  for _, d in ipairs(DIMS) do
    reserve[d] = configured[d] * idleShare
    shared[d] = configured[d] - reserve[d]
  end
  updatedAt = now
  pausedUntil = 0
else
  for _, d in ipairs(DIMS) do
    reserve[d] = tonumber(h['r_' .. d])
    shared[d] = tonumber(h['s_' .. d])
  end
  updatedAt = tonumber(h['t'])
  pausedUntil = tonumber(h['p'])
end

local function capacity(d)
  local l = learned[d]
  if l ~= nil and l < configured[d] then return l end
  return configured[d]
end

local function reserveShare()
  if interactiveSeenAt == nil then return idleShare end
  local quiet = math.max(0, now - interactiveSeenAt)
  return idleShare + (busyShare - idleShare) * math.exp(-quiet / decayMs)
end

local function overflow(d, cap, share)
  local reserveCap = cap * share
  local sharedCap = cap - reserveCap
  if reserve[d] > reserveCap then
    shared[d] = shared[d] + reserve[d] - reserveCap
    reserve[d] = reserveCap
  end
  if shared[d] > sharedCap then
    reserve[d] = math.min(reserveCap, reserve[d] + shared[d] - sharedCap)
    shared[d] = sharedCap
  end
end

local function refill()
  local elapsed = math.max(0, now - updatedAt)
  local share = reserveShare()
  for _, d in ipairs(DIMS) do
    local cap = capacity(d)
    local added = (cap / PER_MINUTE) * elapsed
    reserve[d] = reserve[d] + added * share
    shared[d] = shared[d] + added * (1 - share)
    overflow(d, cap, share)
  end
  updatedAt = math.max(updatedAt, now)
end

local function classCapacity(cap, share, priority)
  if priority == 'interactive' then return cap end
  return cap * (1 - share)
end

local function available(d, priority)
  local s = math.max(0, shared[d])
  if priority == 'interactive' then return math.max(0, reserve[d]) + s end
  return s
end

local function refillPerMs(d, cap, share, priority)
  local perMs = cap / PER_MINUTE
  if priority == 'interactive' then
    if reserve[d] >= 0 then return perMs * (1 - share) + perMs * share end
    return perMs * (1 - share)
  end
  if reserve[d] >= cap * share then return perMs * (1 - share) + perMs * share end
  return perMs * (1 - share)
end

local function admission(cost, priority)
  refill()
  local share = reserveShare()
  local waitMs = 0
  local limitedBy = nil
  for _, d in ipairs(DIMS) do
    local cap = capacity(d)
    local needed = math.min(cost[d], classCapacity(cap, share, priority))
    local missing = needed - available(d, priority)
    if missing > 0 then
      local wait = missing / refillPerMs(d, cap, share, priority)
      if wait > waitMs then
        waitMs = wait
        limitedBy = d
      end
    end
  end
  if pausedUntil > now and pausedUntil - now >= waitMs then
    waitMs = pausedUntil - now
    limitedBy = 'paused'
  end
  return math.ceil(waitMs), limitedBy
end

local function take(cost, priority)
  local taken = {}
  for _, d in ipairs(DIMS) do
    local fromReserve = 0
    if priority == 'interactive' then fromReserve = math.min(cost[d], math.max(0, reserve[d])) end
    local fromShared = cost[d] - fromReserve
    reserve[d] = reserve[d] - fromReserve
    shared[d] = shared[d] - fromShared
    taken[#taken + 1] = num(fromReserve)
    taken[#taken + 1] = num(fromShared)
  end
  return taken
end

local function noteInteractive()
  refill()
  interactiveSeenAt = now
  local share = reserveShare()
  for _, d in ipairs(DIMS) do overflow(d, capacity(d), share) end
end

local function save()
  local fields = { 't', num(updatedAt), 'p', num(pausedUntil) }
  if interactiveSeenAt ~= nil then
    fields[#fields + 1] = 'i'
    fields[#fields + 1] = num(interactiveSeenAt)
  end
  for _, d in ipairs(DIMS) do
    fields[#fields + 1] = 'r_' .. d
    fields[#fields + 1] = num(reserve[d])
    fields[#fields + 1] = 's_' .. d
    fields[#fields + 1] = num(shared[d])
    if learned[d] ~= nil then
      fields[#fields + 1] = 'l_' .. d
      fields[#fields + 1] = num(learned[d])
    end
  end
  redis.call('HSET', key, unpack(fields))
  redis.call('PEXPIRE', key, ttl)
end

local function costAt(first)
  return { input = tonumber(ARGV[first]), output = tonumber(ARGV[first + 1]), requests = tonumber(ARGV[first + 2]) }
end

if op == 'wait' then
  local waitMs, limitedBy = admission(costAt(11), ARGV[10])
  return { 'wait', num(waitMs), limitedBy or '' }
end

if op == 'reserve' then
  local priority = ARGV[10]
  local cost = costAt(11)
  if priority == 'interactive' then noteInteractive() end
  local waitMs, limitedBy = admission(cost, priority)
  if limitedBy ~= nil then
    save()
    return { 'wait', num(waitMs), limitedBy }
  end
  local taken = take(cost, priority)
  save()
  table.insert(taken, 1, 'granted')
  return taken
end

if op == 'settle' then
  local priority = ARGV[10]
  local used = costAt(17)
  refill()
  local share = reserveShare()
  local extra = { input = 0, output = 0, requests = 0 }
  for i, d in ipairs(DIMS) do
    local fromReserve = tonumber(ARGV[11 + (i - 1) * 2])
    local fromShared = tonumber(ARGV[12 + (i - 1) * 2])
    local difference = used[d] - (fromReserve + fromShared)
    if difference > 0 then
      extra[d] = difference
    else
      local refund = -difference
      local toShared = math.min(refund, fromShared)
      shared[d] = shared[d] + toShared
      reserve[d] = reserve[d] + refund - toShared
      overflow(d, capacity(d), share)
    end
  end
  take(extra, priority)
  save()
  return { 'ok' }
end

if op == 'observe' then
  refill()
  local share = reserveShare()
  for i, d in ipairs(DIMS) do
    local limit = tonumber(ARGV[10 + (i - 1) * 2])
    local remaining = tonumber(ARGV[11 + (i - 1) * 2])
    if limit ~= nil and limit > 0 then
      local before = capacity(d)
      learned[d] = limit
      local cap = capacity(d)
      if cap > before and remaining ~= nil then shared[d] = shared[d] + cap - before end
      overflow(d, cap, share)
      reserve[d] = math.min(reserve[d], cap * share)
      shared[d] = math.min(shared[d], cap * (1 - share))
    end
    if remaining ~= nil then
      local excess = reserve[d] + shared[d] - remaining
      if excess > 0 then
        local fromShared = math.min(excess, math.max(0, shared[d]))
        local fromReserve = math.min(excess - fromShared, math.max(0, reserve[d]))
        reserve[d] = reserve[d] - fromReserve
        shared[d] = shared[d] - (excess - fromReserve)
      end
    end
  end
  local pauseMs = tonumber(ARGV[16])
  if pauseMs ~= nil then pausedUntil = math.max(pausedUntil, now + pauseMs) end
  save()
  return { 'ok' }
end

return redis.error_reply('unknown budget op ' .. tostring(op))
`;

-- turnstream: append a command's events to a match, atomically. Checks first, then writes.
-- KEYS: 1 stream, 2 meta, 3 cmds, 4 partition log, 5 secret
-- A stale expected version answers {'conflict', current, the JSON events after the expected version...}; an
-- archived match (finished, its stream compacted into one record: service/store/archive.lua) {'archived', current}.
-- ARGV: 1 expected version, 2 command id ('' = none), 3 stored answer (JSON), 4 head before,
--       5 head after, 6 status after, 7 match id, 8 game id, 9 secret ('' unless creating),
--       10... the JSON envelopes of the events, in version order, one argument each (no string splitting in Lua)
local expected = tonumber(ARGV[1])
if ARGV[2] ~= '' then
  local answer = redis.call('HGET', KEYS[3], ARGV[2])
  if answer then return {'dup', answer} end
end
local meta = redis.call('HMGET', KEYS[2], 'version', 'head', 'archived')
local current = tonumber(meta[1] or '0')
if meta[3] then return {'archived', tostring(current)} end
if current ~= expected then
  local reply = {'conflict', tostring(current)}
  if current > expected then
    for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '0-' .. (expected + 1), '+')) do
      reply[#reply + 1] = entry[2][2]
    end
  end
  return reply
end
if current > 0 and meta[2] ~= ARGV[4] then
  return {'conflict', tostring(current)}
end
if current == 0 and redis.call('EXISTS', KEYS[1]) == 1 then return {'conflict', '-1'} end
local version = current
for i = 10, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], '0-' .. version, 'e', ARGV[i])
end
-- one change-log entry per append: the projector needs only "this match reached this version"
redis.call('XADD', KEYS[4], '*', 'm', ARGV[7], 'v', version, 'n', version - current)
redis.call('HSET', KEYS[2], 'version', version, 'head', ARGV[5], 'status', ARGV[6], 'game', ARGV[8])
if ARGV[9] ~= '' then redis.call('SET', KEYS[5], ARGV[9]) end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) end
return {'ok', tostring(version)}

-- turnstream: switch a finished match to its archive record, atomically, once the record is written and checked.
-- KEYS: 1 stream, 2 meta, 3 cmds, 4 secret, 5 replay snapshots, 6 archive record
-- ARGV: 1 version, 2 head (what the record was made from), 3 the record's bytes (as written and read back)
-- Answers {'ok'}; {'already'} when the match is archived; {'moved', version} when the match has moved on since
-- the record was made (a chat message: the stale record is dropped, the stream stays); {'mismatch'} when the
-- record or the stream is not what was checked (nothing changes).
local meta = redis.call('HMGET', KEYS[2], 'version', 'head', 'archived')
if meta[3] then return {'already'} end
if meta[1] ~= ARGV[1] or meta[2] ~= ARGV[2] then
  redis.call('DEL', KEYS[6])
  return {'moved', tostring(meta[1] or '0')}
end
if redis.call('GET', KEYS[6]) ~= ARGV[3] or redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then
  return {'mismatch'}
end
redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5])
redis.call('HSET', KEYS[2], 'archived', '1')
return {'ok'}

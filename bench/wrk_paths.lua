-- wrk script for bench/load.py and bench/scale_out.py: GET the paths listed in a file, then print
-- the figures as one JSON line, so the Python side reads numbers instead of wrk's rounded text.
--
--   wrk -t1 -c64 -d30s -s bench/wrk_paths.lua http://127.0.0.1:PORT -- paths.txt
--
-- The file has one request path per line (already URL-encoded). Each wrk thread walks the whole
-- list in order, from its own starting point, so a short run still sees every kind of request.
-- A second file, if given, is a JSON body: every request is then a POST of it.
--
--   wrk ... -s bench/wrk_paths.lua http://127.0.0.1:PORT -- paths.txt body.json

local paths = {}
local i = 0
local body = nil
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then
      paths[#paths + 1] = line
    end
  end
  if #paths == 0 then
    error("no paths in " .. args[1])
  end
  i = (id or 0) * 7919 % #paths
  if args[2] then
    local f = assert(io.open(args[2], "rb"))
    body = f:read("*a")
    f:close()
  end
end

function request()
  i = i % #paths + 1
  if body then
    return wrk.format("POST", paths[i], {["Content-Type"] = "application/json"}, body)
  end
  return wrk.format("GET", paths[i])
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end

-- wrk script for the JSON-RPC benchmark: POSTs the body in the file named by XCHAIN_WRK_BODY.
-- A body holding the placeholder __N__ is sent with __N__ replaced by 40 hex digits, the run's
-- number (XCHAIN_WRK_RUN) in the first 8 and a counter in the other 32, so that every request of
-- every run differs (distinct eth_calls, which no answer cache can serve; loadGenerator.mjs).
local file = assert(io.open(os.getenv("XCHAIN_WRK_BODY"), "r"))
wrk.method = "POST"
wrk.body = file:read("*a")
wrk.headers["Content-Type"] = "application/json"
file:close()

if string.find(wrk.body, "__N__", 1, true) then
  local template = wrk.body
  local run = tonumber(os.getenv("XCHAIN_WRK_RUN") or "0")
  local counter = 0
  request = function()
    counter = counter + 1
    local body = string.gsub(template, "__N__", string.format("%08x%032x", run, counter))
    return wrk.format(nil, nil, nil, body)
  end
end

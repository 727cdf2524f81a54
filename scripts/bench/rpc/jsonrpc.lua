-- wrk script for the JSON-RPC benchmark: POSTs the body in the file named by XCHAIN_WRK_BODY.
local file = assert(io.open(os.getenv("XCHAIN_WRK_BODY"), "r"))
wrk.method = "POST"
wrk.body = file:read("*a")
wrk.headers["Content-Type"] = "application/json"
file:close()

// The platform's floor for the JSON-RPC benchmark: a minimal `node:http` server that reads the body,
// parses the JSON and answers every request object with a fixed result. Run as its own process
// (its CPU is read from /proc like the others'):
//
//   node scripts/bench/rpc/floor.mjs <port>
import http from "node:http";

const port = Number(process.argv[2]);
const answer = (request) => ({jsonrpc: "2.0", id: request?.id ?? null, result: "0x1"});

http
  .createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const payload = JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body));
      res.writeHead(200, {"Content-Type": "application/json"}).end(payload);
    });
  })
  .listen(port, "127.0.0.1");

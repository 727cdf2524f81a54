/** Requests, batches and malformed bodies (docs/protocol/errors.md), over HTTP so that the statuses are checked too. */
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
});
afterAll(() => node.close());

const post = async (body: string) => {
  const {status, text} = await node.post(body);
  return {status, body: text === "" ? undefined : JSON.parse(text)};
};
const request = (id: unknown, method: string, params: unknown[] = []) => ({jsonrpc: "2.0", id, method, params});

describe("a single request", () => {
  it("echoes the id, and tolerates a missing jsonrpc member (docs/protocol/errors.md)", async () => {
    expect(await post(JSON.stringify({id: "a", method: "eth_chainId"}))).toEqual({
      status: 200,
      body: {jsonrpc: "2.0", id: "a", result: "0x21"},
    });
    expect((await post(JSON.stringify({id: 7, method: "eth_chainId", params: null}))).body.result).toBe("0x21");
  });

  it("answers malformed JSON with -32700 and HTTP 400", async () => {
    expect(await post("{not json")).toEqual({
      status: 400,
      body: {jsonrpc: "2.0", id: null, error: {code: -32700, message: "JSON parse error"}},
    });
  });

  it("answers what is not a request with -32600 and HTTP 400", async () => {
    for (const body of ["42", '"eth_chainId"', "null", JSON.stringify({id: 1}), JSON.stringify({id: 1, method: 5})]) {
      const reply = await post(body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe(-32600);
    }
    expect((await post(JSON.stringify({jsonrpc: "1.0", id: 1, method: "eth_chainId"}))).body.error).toEqual({
      code: -32600,
      message: 'invalid request: jsonrpc must be "2.0"',
    });
    expect((await post(JSON.stringify({jsonrpc: "2.0", id: {}, method: "eth_chainId"}))).body.error.code).toBe(-32600);
  });

  it("answers named parameters with -32602 and HTTP 400", async () => {
    expect(
      await post(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: {address: "0x00"}})),
    ).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 1,
        error: {code: -32602, message: "params must be an array (named parameters are not supported)"},
      },
    });
  });

  it("answers an unknown method with -32601 naming it and HTTP 200 (docs/protocol/errors.md)", async () => {
    expect(await post(JSON.stringify(request(3, "eth_nothing")))).toEqual({
      status: 200,
      body: {jsonrpc: "2.0", id: 3, error: {code: -32601, message: "method not found: eth_nothing"}},
    });
  });

  it("gives no response to a notification", async () => {
    expect(await post(JSON.stringify({jsonrpc: "2.0", method: "eth_chainId"}))).toEqual({status: 200, body: undefined});
  });

  it("answers a nesting deeper than maxJsonDepth with -32600 (docs/protocol/errors.md)", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(await post(deep)).toEqual({
      status: 400,
      body: {jsonrpc: "2.0", id: null, error: {code: -32600, message: "Invalid request: nesting too deep"}},
    });
    const deepParams = `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    expect((await post(deepParams)).body.error.code).toBe(-32600);
    // The server is fine afterwards.
    expect((await post(JSON.stringify(request(1, "eth_chainId")))).body.result).toBe("0x21");
  });
});

describe("a batch", () => {
  it("answers each request in order, skipping notifications; errors stay per item with HTTP 200", async () => {
    const batch = [
      request(1, "eth_chainId"),
      request(2, "eth_nothing"),
      {jsonrpc: "2.0", method: "eth_blockNumber"},
      "not a request",
      request(3, "eth_getBalance", ["0x12"]),
      request("four", "net_version"),
    ];
    const reply = await post(JSON.stringify(batch));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      {jsonrpc: "2.0", id: 1, result: "0x21"},
      {jsonrpc: "2.0", id: 2, error: {code: -32601, message: "method not found: eth_nothing"}},
      {jsonrpc: "2.0", id: null, error: {code: -32600, message: "invalid request"}},
      {
        jsonrpc: "2.0",
        id: 3,
        error: {code: -32602, message: "invalid argument 0 (address): hex string has length 2, want 40"},
      },
      {jsonrpc: "2.0", id: "four", result: "33"},
    ]);
  });

  it("of notifications only gives no response", async () => {
    const batch = [
      {jsonrpc: "2.0", method: "eth_chainId"},
      {jsonrpc: "2.0", method: "net_version"},
    ];
    expect(await post(JSON.stringify(batch))).toEqual({status: 200, body: undefined});
  });

  it("may not be empty", async () => {
    expect(await post("[]")).toEqual({
      status: 400,
      body: {jsonrpc: "2.0", id: null, error: {code: -32600, message: "invalid request: empty batch"}},
    });
  });

  it("over maxBatchSize, nested arrays counted, is HTTP 400 with rskj's error as a JSON-RPC 2.0 response (docs/protocol/json-rpc.md §1.2)", async () => {
    const tooMany = Array.from({length: 51}, (_, i) => request(i, "eth_chainId"));
    const refusal = {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Cannot dispatch batch requests. 50 is the max number of supported batch requests",
      },
    };
    expect(await post(JSON.stringify(tooMany))).toEqual({status: 400, body: refusal});
    const nested = [tooMany.slice(0, 26), [tooMany.slice(26)]];
    expect(await post(JSON.stringify(nested))).toEqual({status: 400, body: refusal});
    const fifty = await post(JSON.stringify(tooMany.slice(0, 50)));
    expect(fifty.body).toHaveLength(50);
  });

  it("answers a nested array within the limit as an invalid request", async () => {
    const reply = await post(JSON.stringify([request(1, "eth_chainId"), [request(2, "eth_chainId")]]));
    expect(reply.body).toEqual([
      {jsonrpc: "2.0", id: 1, result: "0x21"},
      {jsonrpc: "2.0", id: null, error: {code: -32600, message: "invalid request"}},
    ]);
  });

  it("respects a configured maximum", async () => {
    const small = await TestNode.start({rpc: {maxBatchSize: 2}});
    try {
      const {status, text} = await small.post(JSON.stringify([1, 2, 3].map((i) => request(i, "eth_chainId"))));
      expect(status).toBe(400);
      expect(JSON.parse(text).error.message).toBe(
        "Cannot dispatch batch requests. 2 is the max number of supported batch requests",
      );
    } finally {
      await small.close();
    }
  });
});

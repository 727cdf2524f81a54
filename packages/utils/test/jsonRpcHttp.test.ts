/** The socket-free parts of the shared JSON-RPC HTTP client: redaction, answer reading, retries. */
import {describe, expect, it} from "vitest";
import {answersById, readAnswer, redactUrl, TransientFailure, withRetries} from "../src/jsonRpcHttp.ts";

describe("redactUrl", () => {
  it("drops credentials, the query and API-key path segments", () => {
    expect(redactUrl("https://user:secret@node.example:8545/rpc")).toBe("https://node.example:8545/rpc");
    expect(redactUrl("https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef")).toBe(
      "https://mainnet.infura.io/v3/***",
    );
    expect(redactUrl("https://rpc.example/?apikey=abc")).toBe("https://rpc.example");
    expect(redactUrl("http://127.0.0.1:4444")).toBe("http://127.0.0.1:4444");
    expect(redactUrl("not a url")).toBe("(an unparsable URL)");
  });
});

describe("JSON-RPC answers", () => {
  it("reads a batch by id and each answer's result or error", () => {
    const byId = answersById([
      {jsonrpc: "2.0", id: 1, result: "0x1"},
      {jsonrpc: "2.0", id: 2, error: {code: -32000, message: "boom"}},
      {jsonrpc: "2.0", id: 3},
    ]);
    expect(readAnswer(byId?.get(1))).toEqual({result: "0x1"});
    expect(readAnswer(byId?.get(2))).toEqual({error: {code: -32000, message: "boom"}});
    expect(readAnswer(byId?.get(3))).toBeUndefined();
    // An error's data (a revert's payload) is kept.
    expect(readAnswer({id: 4, error: {code: 3, message: "execution reverted", data: "0x08c379a0"}})).toStrictEqual({
      error: {code: 3, message: "execution reverted", data: "0x08c379a0"},
    });
    expect(answersById({error: {code: -32600}})).toBeUndefined();
  });
});

describe("withRetries", () => {
  it("retries a transient failure up to the bound, then gives up with the caller's error", async () => {
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls < 2) throw new TransientFailure("HTTP 429", 0);
        return "ok";
      },
      3,
      () => new Error("gave up"),
    );
    expect([result, calls]).toEqual(["ok", 2]);
    calls = 0;
    const failed = withRetries(
      async () => {
        calls++;
        throw new TransientFailure("HTTP 503", 0);
      },
      2,
      (attempts, reason) => new Error(`${attempts} attempts: ${reason}`),
    );
    await expect(failed).rejects.toThrow("3 attempts: HTTP 503");
    expect(calls).toBe(3);
  });

  it("throws any other error at once", async () => {
    let calls = 0;
    const failed = withRetries(
      async () => {
        calls++;
        throw new Error("not transient");
      },
      5,
      () => new Error("gave up"),
    );
    await expect(failed).rejects.toThrow("not transient");
    expect(calls).toBe(1);
  });
});

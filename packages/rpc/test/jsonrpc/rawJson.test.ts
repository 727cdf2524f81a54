/** Response bodies with pre-serialized results: the bytes must parse to the body `JSON.stringify` would give. */
import {describe, expect, it} from "vitest";
import type {JsonRpcResponse} from "../../src/jsonrpc/message.ts";
import {RawJson, serializeBody, serializeResponse} from "../../src/jsonrpc/rawJson.ts";

const raw = (value: unknown) => new RawJson(Buffer.from(JSON.stringify(value)));
const parsed = (body: unknown) => JSON.parse(serializeBody(body).toString("utf8"));

const LOGS = [{address: "0x01", topics: ["0xaa", "0xbb"], data: "0x"}, {nested: {list: [1, null, "ü✓"]}}];

describe("serializeBody", () => {
  it("inserts a RawJson result verbatim into a single response", () => {
    const bytes = serializeBody({jsonrpc: "2.0", id: 1, result: raw(LOGS)});
    expect(JSON.parse(bytes.toString("utf8"))).toEqual({jsonrpc: "2.0", id: 1, result: LOGS});
    expect(bytes.includes(Buffer.from(JSON.stringify(LOGS)))).toBe(true);
  });

  it("keeps string and null ids, and raw scalar and empty results", () => {
    expect(parsed({jsonrpc: "2.0", id: 'a"b\\', result: raw([])})).toEqual({jsonrpc: "2.0", id: 'a"b\\', result: []});
    expect(parsed({jsonrpc: "2.0", id: null, result: raw("0x10")})).toEqual({jsonrpc: "2.0", id: null, result: "0x10"});
    expect(parsed({jsonrpc: "2.0", id: 0, result: new RawJson(Buffer.from("null"))})).toEqual({
      jsonrpc: "2.0",
      id: 0,
      result: null,
    });
  });

  it("serializes a normal result exactly as JSON.stringify, in UTF-8", () => {
    const body = {jsonrpc: "2.0", id: 7, result: {name: "ü✓", values: ["0x1", 2, true, null]}};
    const bytes = serializeBody(body);
    expect(bytes).toEqual(Buffer.from(JSON.stringify(body)));
    expect(JSON.parse(bytes.toString("utf8"))).toEqual(body);
    // Two bytes for "ü", three for "✓".
    expect(bytes.includes(Buffer.from([0xc3, 0xbc, 0xe2, 0x9c, 0x93]))).toBe(true);
  });

  it("serializes an error response exactly as JSON.stringify", () => {
    const body = {jsonrpc: "2.0", id: "x", error: {code: -32601, message: "the method ü✓ does not exist"}};
    expect(serializeBody(body)).toEqual(Buffer.from(JSON.stringify(body)));
    expect(parsed(body)).toEqual(body);
  });

  it("serializes a batch without RawJson exactly as JSON.stringify", () => {
    const body = [
      {jsonrpc: "2.0", id: 1, result: "0x21"},
      {jsonrpc: "2.0", id: 2, error: {code: -32602, message: "invalid params"}},
      {jsonrpc: "2.0", id: 3, result: {text: "ü✓"}},
    ];
    expect(serializeBody(body)).toEqual(Buffer.from(JSON.stringify(body)));
    expect(parsed(body)).toEqual(body);
  });

  it("serializes a batch mixing RawJson results, normal results and errors", () => {
    const body = [
      {jsonrpc: "2.0", id: 1, result: raw(LOGS)},
      {jsonrpc: "2.0", id: 2, result: {text: "ü✓", n: 1}},
      {jsonrpc: "2.0", id: 3, error: {code: -32000, message: "boom", data: "0x08c379a0"}},
      {jsonrpc: "2.0", id: "four", result: raw([])},
      {jsonrpc: "2.0", id: null, result: null},
    ];
    expect(parsed(body)).toEqual([
      {jsonrpc: "2.0", id: 1, result: LOGS},
      {jsonrpc: "2.0", id: 2, result: {text: "ü✓", n: 1}},
      {jsonrpc: "2.0", id: 3, error: {code: -32000, message: "boom", data: "0x08c379a0"}},
      {jsonrpc: "2.0", id: "four", result: []},
      {jsonrpc: "2.0", id: null, result: null},
    ]);
  });

  it("serializes a batch whose only entry has a RawJson result, and one with a RawJson entry last", () => {
    expect(parsed([{jsonrpc: "2.0", id: 1, result: raw(LOGS)}])).toEqual([{jsonrpc: "2.0", id: 1, result: LOGS}]);
    expect(
      parsed([
        {jsonrpc: "2.0", id: 1, error: {code: -32600, message: "invalid request"}},
        {jsonrpc: "2.0", id: 2, result: raw({a: "ü✓"})},
      ]),
    ).toEqual([
      {jsonrpc: "2.0", id: 1, error: {code: -32600, message: "invalid request"}},
      {jsonrpc: "2.0", id: 2, result: {a: "ü✓"}},
    ]);
  });

  it("serializes a bare error body (no id) exactly as JSON.stringify", () => {
    const body = {error: {code: -32600, message: "empty batch"}};
    expect(serializeBody(body)).toEqual(Buffer.from(JSON.stringify(body)));
  });
});

describe("serializeResponse", () => {
  it("writes a string result exactly as JSON.stringify of the whole response, whatever the id and the text", () => {
    const texts = [
      "0x1",
      "0x3635c9adc5dea00000",
      "",
      'a "quoted" \\ back',
      "line\nbreak\u0001",
      "tab\there",
      "~ and \u007f",
      "ü✓ 𝄞",
      "lone \ud800 surrogate",
    ];
    const ids = [1, 0, -0, -3, 1.5, 1e21, 2 ** 53 + 2, "7", 'odd "id"', null];
    for (const result of texts) {
      for (const id of ids) {
        const response: JsonRpcResponse = {jsonrpc: "2.0", id, result};
        expect(serializeResponse(response)).toBe(JSON.stringify(response));
      }
    }
  });

  it("writes any other result and an error as JSON.stringify does", () => {
    const responses: JsonRpcResponse[] = [
      {jsonrpc: "2.0", id: 1, result: {a: [1, "x"]}},
      {jsonrpc: "2.0", id: "2", result: null},
      {jsonrpc: "2.0", id: null, error: {code: -32600, message: "bad"}},
    ];
    for (const response of responses) expect(serializeResponse(response)).toBe(JSON.stringify(response));
  });
});

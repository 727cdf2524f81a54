/**
 * `frameText`: a WebSocket message's JSON-RPC text (docs/rpc.md §4.1). Binary messages are UTF-8
 * JSON as web3.py sends them; bytes that are not UTF-8 read as nothing (answered -32700) instead of
 * a text with U+FFFD in place of the bad bytes.
 */
import {describe, expect, it} from "vitest";
import {frameText} from "../../src/transport/frameText.ts";

describe("frameText", () => {
  it("reads a text message and a binary one holding the same UTF-8 JSON alike", () => {
    const json = '{"jsonrpc": "2.0", "method": "eth_chainId", "params": [], "id": 0}';
    expect(frameText(Buffer.from(json), false)).toBe(json);
    expect(frameText(Buffer.from(json), true)).toBe(json);
  });

  it("keeps multi-byte characters of a binary message", () => {
    const json = '{"jsonrpc":"2.0","method":"web3_sha3","params":["0x"],"id":"é→😀"}';
    expect(frameText(Buffer.from(json, "utf8"), true)).toBe(json);
  });

  it("refuses a binary message that is not UTF-8, even when its other bytes are JSON", () => {
    // 0xff is never UTF-8; a lenient decoder would give a valid request with "\ufffd" as its id.
    const bytes = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"eth_chainId","id":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    expect(frameText(bytes, true)).toBeUndefined();
    // A truncated multi-byte sequence at the end.
    expect(frameText(Buffer.from([0x7b, 0xe2, 0x82]), true)).toBeUndefined();
  });

  it("keeps a byte-order mark, as the text and HTTP paths do (it is not JSON: -32700)", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("{}")]);
    expect(frameText(bytes, true)).toBe("\ufeff{}");
  });
});

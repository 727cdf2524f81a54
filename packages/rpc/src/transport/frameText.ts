/**
 * The JSON-RPC text of a WebSocket message (docs/rpc.md §4.1). A text frame is UTF-8 already
 * (the `ws` library checks it and closes with 1007 otherwise); a binary frame is read as UTF-8 JSON
 * too, as geth and anvil read it, since web3.py's `WebSocketProvider` sends every request that way.
 * Bytes that are not UTF-8 give undefined: the request is answered -32700, as text that is not JSON is.
 */

/** Strict: invalid UTF-8 throws instead of turning into U+FFFD, which could make a different, valid request. */
const utf8 = new TextDecoder("utf-8", {fatal: true, ignoreBOM: true});

/** The text a message carries, or undefined when a binary message is not UTF-8. */
export function frameText(data: Buffer, isBinary: boolean): string | undefined {
  if (!isBinary) return data.toString("utf8");
  try {
    return utf8.decode(data);
  } catch {
    return undefined;
  }
}

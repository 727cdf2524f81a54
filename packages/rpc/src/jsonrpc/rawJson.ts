import type {JsonRpcResponse} from "./message.ts";

/**
 * A result already serialized: large answers (eth_getLogs) are assembled from cached UTF-8 JSON
 * fragments instead of building an object per entry for `JSON.stringify` to walk, and reach the
 * socket without being encoded again.
 */
export class RawJson {
  /** `bytes` must be the UTF-8 text of one complete JSON value. */
  constructor(readonly bytes: Buffer) {}
}

/** The UTF-8 JSON of a response body, with `RawJson` results inserted verbatim. */
export function serializeBody(body: unknown): Buffer {
  const chunks: Buffer[] = [];
  appendBody(chunks, body);
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/**
 * The JSON of one response: a string (a batch's are joined and encoded once), or its UTF-8 bytes
 * when its result is `RawJson`. A string result (a quantity, a hash: the common answer) is written
 * around its `JSON.stringify`, the text `JSON.stringify` gives for the whole response, at half its cost;
 * a numeric id and a result that needs no escape (hex) are written as they are, a third less again
 * (a batch of 50 cached reads: docs/performance.md §6).
 */
export function serializeResponse(response: JsonRpcResponse): string | Buffer {
  if ("result" in response && typeof response.result === "string") {
    const {id, result} = response;
    // A number's text is the same from `JSON.stringify` and from a template (ids come from JSON: no NaN).
    const idText = typeof id === "number" ? `${id}` : JSON.stringify(id);
    const resultText = needsNoEscape(result) ? `"${result}"` : JSON.stringify(result);
    return `{"jsonrpc":"2.0","id":${idText},"result":${resultText}}`;
  }
  return hasRawResult(response) ? serializeBody(response) : JSON.stringify(response);
}

/** Whether `text` is printable ASCII without a quote or a backslash: its JSON is itself in quotes. */
function needsNoEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

function appendBody(chunks: Buffer[], body: unknown): void {
  if (Array.isArray(body) && body.some(hasRawResult)) {
    chunks.push(Buffer.from("["));
    body.forEach((response, i) => {
      if (i > 0) chunks.push(Buffer.from(","));
      appendBody(chunks, response);
    });
    chunks.push(Buffer.from("]"));
    return;
  }
  if (hasRawResult(body)) {
    const {result, ...rest} = body;
    // The other members' text without its closing brace, then the result and the brace.
    const others = JSON.stringify(rest).slice(0, -1);
    const head = others === "{" ? `{"result":` : `${others},"result":`;
    chunks.push(Buffer.from(head), result.bytes, Buffer.from("}"));
    return;
  }
  chunks.push(Buffer.from(JSON.stringify(body)));
}

function hasRawResult(value: unknown): value is {result: RawJson} {
  return typeof value === "object" && value !== null && "result" in value && value.result instanceof RawJson;
}

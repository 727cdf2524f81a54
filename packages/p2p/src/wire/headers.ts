/**
 * `/xchain/<networkId>/headers/1`. Request: by number `[0, start, count]` or by hash
 * `[1, [hash…]]`; response: `[header…]`, each header in its full encoding (merged-mining fields
 * included). At most `MAX_HEADERS_PER_REQUEST` either way.
 */
import {type BlockHeader, decodeRlp, encodeRlp, type HeaderEncodingRules, type RlpItem} from "@xchain/primitives";
import {MAX_HEADERS_PER_REQUEST} from "../types.ts";
import {
  boundedList,
  decodeList,
  encodeUint,
  hash,
  header,
  invalidMessage,
  invalidRequest,
  safeInteger,
  tuple,
  uint,
} from "./codec.ts";

/** Canonical headers `start…start+count-1`, or the headers of the given hashes. */
export type HeadersRequest = {kind: "byNumber"; start: number; count: number} | {kind: "byHash"; hashes: Uint8Array[]};

const BY_NUMBER = 0n;
const BY_HASH = 1n;

/** Encodes a request; throws `P2PError` INVALID_REQUEST when it breaks the caps (nothing to send). */
export function encodeHeadersRequest(request: HeadersRequest): Uint8Array {
  if (request.kind === "byNumber") {
    const {start, count} = request;
    if (!Number.isSafeInteger(start) || start < 0) throw invalidRequest(`start ${start} is not a block number`);
    checkCount(count);
    return encodeRlp([encodeUint(BY_NUMBER), encodeUint(start), encodeUint(count)]);
  }
  checkCount(request.hashes.length);
  for (const h of request.hashes) if (h.length !== 32) throw invalidRequest(`a hash of ${h.length} bytes`);
  return encodeRlp([encodeUint(BY_HASH), request.hashes]);
}

/** Decodes a request; throws `P2PError` INVALID_MESSAGE (malformed or over the cap). */
export function decodeHeadersRequest(bytes: Uint8Array): HeadersRequest {
  const items = decodeList(bytes, "headers request");
  const selector = uint(items[0], "headers request selector", 8);
  if (selector === BY_NUMBER) {
    const [, startItem, countItem] = tuple(items, 3, "headers request by number");
    const start = safeInteger(startItem, "headers request start");
    const count = safeInteger(countItem, "headers request count");
    if (count > MAX_HEADERS_PER_REQUEST) {
      throw invalidMessage(`headers request: ${count} headers asked, at most ${MAX_HEADERS_PER_REQUEST} allowed`);
    }
    return {kind: "byNumber", start, count};
  }
  if (selector === BY_HASH) {
    const [, hashItems] = tuple(items, 2, "headers request by hash");
    const hashes = boundedList(hashItems, MAX_HEADERS_PER_REQUEST, "headers request hashes").map((item, i) =>
      hash(item, `headers request hash ${i}`),
    );
    return {kind: "byHash", hashes};
  }
  throw invalidMessage(`headers request: unknown selector ${selector}`);
}

/** Encodes a response (the server never sends more than the cap). */
export function encodeHeadersResponse(headers: readonly BlockHeader[]): Uint8Array {
  return encodeRlp(headers.map((h): RlpItem => decodeRlp(h.encode())));
}

/** Decodes a response; throws `P2PError` INVALID_MESSAGE (malformed, or more headers than any request may ask). */
export function decodeHeadersResponse(bytes: Uint8Array, rules: HeaderEncodingRules): BlockHeader[] {
  const items = boundedList(decodeList(bytes, "headers response"), MAX_HEADERS_PER_REQUEST, "headers response");
  return items.map((item, i) => header(item, rules, `header ${i}`));
}

function checkCount(count: number): void {
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_HEADERS_PER_REQUEST) {
    throw invalidRequest(`${count} headers asked, at most ${MAX_HEADERS_PER_REQUEST} allowed`);
  }
}

/**
 * `/xchain/<networkId>/bodies/1`. Request: `[hash…]`; response: `[[[transaction…], [uncle…]]…]`,
 * transactions with the elements they were received with and uncles in their full encoding, as the
 * chain stores a body. At most `MAX_BODIES_PER_REQUEST` either way.
 */
import {type Block, type BlockDecodeOptions, decodeRlp, encodeRlp, type RlpItem, Transaction} from "@xchain/primitives";
import {type BlockBody, MAX_BODIES_PER_REQUEST} from "../types.ts";
import {
  boundedList,
  decodeList,
  encodeListOfEncoded,
  guard,
  hash,
  header,
  invalidRequest,
  list,
  tuple,
} from "./codec.ts";

/** Encodes a request; throws `P2PError` INVALID_REQUEST when it breaks the caps (nothing to send). */
export function encodeBodiesRequest(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length > MAX_BODIES_PER_REQUEST) {
    throw invalidRequest(`${hashes.length} bodies asked, at most ${MAX_BODIES_PER_REQUEST} allowed`);
  }
  for (const h of hashes) if (h.length !== 32) throw invalidRequest(`a hash of ${h.length} bytes`);
  return encodeRlp([...hashes]);
}

/** Decodes a request; throws `P2PError` INVALID_MESSAGE (malformed or over the cap). */
export function decodeBodiesRequest(bytes: Uint8Array): Uint8Array[] {
  return boundedList(decodeList(bytes, "bodies request"), MAX_BODIES_PER_REQUEST, "bodies request").map((item, i) =>
    hash(item, `bodies request hash ${i}`),
  );
}

/** The encoding of one body (the server measures a response with it as it builds it). */
export function encodeBody(body: Pick<Block, "transactions" | "uncles">): Uint8Array {
  return encodeRlp([
    body.transactions.map((tx): RlpItem => [...tx.receivedFields]),
    body.uncles.map((u) => decodeRlp(u.encode())),
  ]);
}

/** Encodes a response from encoded bodies (`encodeBody`), without encoding them again. */
export function encodeBodiesResponse(bodies: readonly Uint8Array[]): Uint8Array {
  return encodeListOfEncoded(bodies);
}

/** Decodes a response; throws `P2PError` INVALID_MESSAGE (malformed, or more bodies than any request may ask). */
export function decodeBodiesResponse(bytes: Uint8Array, options: BlockDecodeOptions): BlockBody[] {
  const items = boundedList(decodeList(bytes, "bodies response"), MAX_BODIES_PER_REQUEST, "bodies response");
  return items.map((item, i) => decodeBody(item, options, `body ${i}`));
}

function decodeBody(item: RlpItem, options: BlockDecodeOptions, what: string): BlockBody {
  const [txItems, uncleItems] = tuple(item, 2, what);
  const txList = list(txItems, `${what} transactions`);
  const transactions = txList.map((tx, i) =>
    guard(`${what} transaction ${i}`, () =>
      Transaction.fromRlpItem(tx, {chainId: options.chainId, allowRemasc: i === txList.length - 1}),
    ),
  );
  const uncles = list(uncleItems, `${what} uncles`).map((u, i) => header(u, options.rules, `${what} uncle ${i}`));
  return {transactions, uncles};
}

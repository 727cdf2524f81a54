/**
 * `/xchain/<networkId>/pooledtxs/1` (docs/p2p.md "Pending transactions to new peers"). Request:
 * `[transaction…]`, signed legacy transactions as the gossip topic carries them, at most
 * `MAX_PUSHED_TRANSACTIONS`; response: how many of them the peer admitted to its pool, an RLP integer.
 */
import {type BlockDecodeOptions, decodeRlp, encodeRlp, Transaction} from "@xchain/primitives";
import {boundedList, decodeList, encodeListOfEncoded, encodeUint, guard, invalidRequest, safeInteger} from "./codec.ts";

/** Transactions in one push (a pool's pending transactions go in several). */
export const MAX_PUSHED_TRANSACTIONS = 256;

/** Encodes a push of encoded transactions; throws `P2PError` INVALID_REQUEST over the cap (nothing to send). */
export function encodeTransactionsPush(encoded: readonly Uint8Array[]): Uint8Array {
  if (encoded.length > MAX_PUSHED_TRANSACTIONS) {
    throw invalidRequest(`${encoded.length} transactions pushed, at most ${MAX_PUSHED_TRANSACTIONS} allowed`);
  }
  return encodeListOfEncoded(encoded);
}

/** Decodes a push (never the REMASC transaction); throws `P2PError` INVALID_MESSAGE. */
export function decodeTransactionsPush(bytes: Uint8Array, options: BlockDecodeOptions): Transaction[] {
  const items = boundedList(decodeList(bytes, "transactions push"), MAX_PUSHED_TRANSACTIONS, "transactions push");
  return items.map((item, i) =>
    guard(`pushed transaction ${i}`, () =>
      Transaction.fromRlpItem(item, {chainId: options.chainId, allowRemasc: false}),
    ),
  );
}

/** The answer to a push: how many transactions were admitted. */
export function encodePushAnswer(admitted: number): Uint8Array {
  return encodeRlp(encodeUint(admitted));
}

/** Decodes the answer to a push; throws `P2PError` INVALID_MESSAGE. */
export function decodePushAnswer(bytes: Uint8Array): number {
  return safeInteger(
    guard("push answer", () => decodeRlp(bytes)),
    "push answer",
  );
}

/**
 * Gossip payloads: a block in its body encoding `[header, [transaction…], [uncle…]]` on
 * `/xchain/<networkId>/blocks/1`, a transaction in its RLP encoding on `/xchain/<networkId>/txs/1`.
 */
import {Block, type BlockDecodeOptions, Transaction} from "@xchain/primitives";
import {MAX_MESSAGE_BYTES} from "../types.ts";
import {guard, invalidMessage} from "./codec.ts";

/** Decodes a gossiped block; throws `P2PError` INVALID_MESSAGE. */
export function decodeGossipBlock(bytes: Uint8Array, options: BlockDecodeOptions): Block {
  checkSize(bytes, "block");
  return guard("gossiped block", () => Block.decode(bytes, options));
}

/** Decodes a gossiped transaction (never the REMASC transaction); throws `P2PError` INVALID_MESSAGE. */
export function decodeGossipTransaction(bytes: Uint8Array, options: BlockDecodeOptions): Transaction {
  checkSize(bytes, "transaction");
  return guard("gossiped transaction", () => Transaction.decode(bytes, {chainId: options.chainId, allowRemasc: false}));
}

function checkSize(bytes: Uint8Array, what: string): void {
  if (bytes.length > MAX_MESSAGE_BYTES) throw invalidMessage(`gossiped ${what} of ${bytes.length} bytes`);
}

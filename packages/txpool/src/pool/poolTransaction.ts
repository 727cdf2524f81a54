/** A transaction as the pool keeps it: with its sender, cost and arrival, computed once. */
import type {Transaction} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {maxCost} from "../validate/rules.ts";

/** An admitted transaction. */
export interface PoolTransaction {
  readonly tx: Transaction;
  /** Transaction hash, lower-case hex without 0x (the pool's key). */
  readonly hash: string;
  readonly sender: Uint8Array;
  /** Sender, lower-case hex without 0x. */
  readonly senderKey: string;
  readonly nonce: bigint;
  readonly gasPrice: bigint;
  /** gasLimit × gasPrice + value: the most it can take from the sender's balance. */
  readonly cost: bigint;
  /** Arrival order across the pool: breaks gas price ties, earlier first. */
  readonly sequence: number;
  /** When it was admitted (the queued lifetime counts from here). */
  readonly addedAtMs: number;
  /** Estimated heap bytes: the encoding plus `POOL_ENTRY_BYTES`. */
  readonly bytes: number;
}

/**
 * Estimated heap bytes of a pooled transaction beyond its encoding: the decoded fields (bigints,
 * arrays), its hash and the pool's records and keys.
 */
export const POOL_ENTRY_BYTES = 1024;

/** Wraps an admitted transaction. */
export function poolTransaction(
  tx: Transaction,
  sender: Uint8Array,
  sequence: number,
  addedAtMs: number,
): PoolTransaction {
  return {
    tx,
    hash: bytesToHex(tx.hash()),
    sender,
    senderKey: bytesToHex(sender),
    nonce: tx.nonce,
    gasPrice: tx.gasPrice,
    cost: maxCost(tx),
    sequence,
    addedAtMs,
    bytes: tx.encode().length + POOL_ENTRY_BYTES,
  };
}

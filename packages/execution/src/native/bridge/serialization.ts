/**
 * The value encodings of the Bridge's storage (docs/protocol/native-contracts.md §10.4), as rskj's
 * `BridgeSerializationUtils` writes them: RLP integers, and flattened RLP lists of the peg-out
 * collections. A value that does not decode is refused with `BridgeStorageError` (the call reading it fails).
 */
import {RLP} from "@ethereumjs/rlp";
import {bigIntToBytes, bytesToBigInt, bytesToHex, compareBytes} from "@xchain/utils";
import {BridgeStorageError, BridgeStorageErrorCode} from "./errors.ts";

/** A peg-out request waiting for the next batch. */
export interface ReleaseRequest {
  /** The Bitcoin destination's HASH160 (a P2PKH address on the Bridge's network). */
  destinationHash160: Uint8Array;
  /** Satoshis. */
  amount: bigint;
  /** The RSK transaction that asked for it (RSKIP-146); undefined for entries made before. */
  rskTxHash: Uint8Array | undefined;
}

/** A built peg-out waiting for confirmations. */
export interface PegoutWaitingForConfirmations {
  /** The Bitcoin transaction, serialized. */
  btcTx: Uint8Array;
  /** The RSK block that created it. */
  creationBlock: bigint;
  /** The RSK transaction that created it (RSKIP-146); undefined for entries made before. */
  rskTxHash: Uint8Array | undefined;
}

/** A peg-out waiting for the federators' signatures, keyed by the RSK tx hash that created it. */
export interface PegoutWaitingForSignatures {
  rskTxHash: Uint8Array;
  btcTx: Uint8Array;
}

/** rskj's `RLP.encodeBigInteger`: 0 is `0x80`. */
export const encodeRlpInteger = (value: bigint): Uint8Array => RLP.encode(bigIntToBytes(value));

/**
 * The bytes rskj's `RLP.encodeBigInteger(BigInteger.valueOf(long))` wraps, for any sign: a negative
 * value is Java's minimal two's complement (-1 is `ff`), which reads back as unsigned.
 */
export function longBytes(value: bigint): Uint8Array {
  if (value >= 0n) return bigIntToBytes(value);
  let size = 1;
  while (value < -(1n << BigInt(8 * size - 1))) size++;
  return bigIntToBytes(BigInt.asUintN(8 * size, value));
}

/** A stored value that does not decode as rskj's format for its key. */
export function corrupt(name: string, value: Uint8Array, why: string): BridgeStorageError {
  return new BridgeStorageError(
    {code: BridgeStorageErrorCode.UNDECODABLE, key: name, value: bytesToHex(value)},
    `the Bridge's stored ${name} does not decode: ${why}`,
  );
}

/** An RLP integer (`deserializeOptionalLong`, `deserializeCoin`). */
export function decodeRlpInteger(name: string, value: Uint8Array): bigint {
  let decoded: unknown;
  try {
    decoded = RLP.decode(value);
  } catch (e) {
    throw corrupt(name, value, (e as Error).message);
  }
  if (!(decoded instanceof Uint8Array)) throw corrupt(name, value, "a list where an integer belongs");
  return bytesToBigInt(decoded);
}

/** A flattened RLP list of byte strings, its length a multiple of `group`; an empty value is an empty list. */
export function decodeFlatList(name: string, value: Uint8Array, group: number): Uint8Array[] {
  if (value.length === 0) return [];
  let decoded: unknown;
  try {
    decoded = RLP.decode(value);
  } catch (e) {
    throw corrupt(name, value, (e as Error).message);
  }
  if (!Array.isArray(decoded) || !decoded.every((item) => item instanceof Uint8Array)) {
    throw corrupt(name, value, "not a list of byte strings");
  }
  if (decoded.length % group !== 0) {
    throw corrupt(name, value, `expected a multiple of ${group} elements, got ${decoded.length}`);
  }
  return decoded as Uint8Array[];
}

function groups<T>(items: Uint8Array[], size: number, make: (group: Uint8Array[]) => T): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i += size) out.push(make(items.slice(i, i + size)));
  return out;
}

/** `[hash160, amount]*` (`releaseRequestQueue`) or `[hash160, amount, rskTxHash]*` (`…WithTxHash`). */
export function decodeReleaseRequests(name: string, value: Uint8Array, withTxHash: boolean): ReleaseRequest[] {
  const size = withTxHash ? 3 : 2;
  return groups(decodeFlatList(name, value, size), size, ([hash160, amount, rskTxHash]) => ({
    destinationHash160: hash160 as Uint8Array,
    amount: bytesToBigInt(amount as Uint8Array),
    rskTxHash,
  }));
}

/** `serializeReleaseRequestQueue[WithTxHash]`: the entries without (or with) a hash, in queue order. */
export function encodeReleaseRequests(entries: readonly ReleaseRequest[], withTxHash: boolean): Uint8Array {
  const items: Uint8Array[] = [];
  for (const entry of entries) {
    if ((entry.rskTxHash !== undefined) !== withTxHash) continue;
    items.push(entry.destinationHash160, bigIntToBytes(entry.amount));
    if (entry.rskTxHash) items.push(entry.rskTxHash);
  }
  return RLP.encode(items);
}

/** `[btcTx, block]*` (`releaseTransactionSet`) or `[btcTx, block, rskTxHash]*` (`…WithTxHash`). */
export function decodePegoutsWaitingForConfirmations(
  name: string,
  value: Uint8Array,
  withTxHash: boolean,
): PegoutWaitingForConfirmations[] {
  const size = withTxHash ? 3 : 2;
  return groups(decodeFlatList(name, value, size), size, ([btcTx, block, rskTxHash]) => ({
    btcTx: btcTx as Uint8Array,
    creationBlock: bytesToBigInt(block as Uint8Array),
    rskTxHash,
  }));
}

/** Entries ordered by their Bitcoin transaction's bytes (rskj's `BTC_TX_COMPARATOR`), then flattened. */
export function encodePegoutsWaitingForConfirmations(
  entries: readonly PegoutWaitingForConfirmations[],
  withTxHash: boolean,
): Uint8Array {
  const items: Uint8Array[] = [];
  const chosen = entries.filter((entry) => (entry.rskTxHash !== undefined) === withTxHash);
  chosen.sort((a, b) => compareBytes(a.btcTx, b.btcTx));
  for (const entry of chosen) {
    items.push(entry.btcTx, bigIntToBytes(entry.creationBlock));
    if (entry.rskTxHash) items.push(entry.rskTxHash);
  }
  return RLP.encode(items);
}

/** `[rskTxHash, btcTx]*` (`rskTxsWaitingFS`). */
export function decodePegoutsWaitingForSignatures(name: string, value: Uint8Array): PegoutWaitingForSignatures[] {
  return groups(decodeFlatList(name, value, 2), 2, ([rskTxHash, btcTx]) => ({
    rskTxHash: rskTxHash as Uint8Array,
    btcTx: btcTx as Uint8Array,
  }));
}

/** Sorted as rskj's `TreeMap<Keccak256, …>` iterates (`rskTxHashOrder`), then flattened. */
export function encodePegoutsWaitingForSignatures(entries: readonly PegoutWaitingForSignatures[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => rskTxHashOrder(a.rskTxHash, b.rskTxHash));
  return RLP.encode(sorted.flatMap((entry) => [entry.rskTxHash, entry.btcTx]));
}

/** A list of RLP strings, each a bitcoinj `UTXO.serializeToStream` (`serializeUTXOList`). */
export function decodeUtxoList(name: string, value: Uint8Array): Uint8Array[] {
  return decodeFlatList(name, value, 1);
}

export const encodeUtxoList = (utxos: readonly Uint8Array[]): Uint8Array => RLP.encode([...utxos]);

/**
 * rskj's `Keccak256.compareTo`: it compares from the last byte down to the first (`ByteUtil`
 * little-endian order), so `rskTxsWaitingFS` and eth_bridgeState list hashes in that order.
 */
export function rskTxHashOrder(a: Uint8Array, b: Uint8Array): number {
  for (let i = 31; i >= 0; i--) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/**
 * Reading an upstream's answers leniently where upstreams differ, strictly where it matters: quantities
 * with or without leading zeros (rskj pads some), storage words as DATA of up to 32 bytes or as QUANTITY,
 * block objects whatever extra fields they carry (typed transactions, `baseFeePerGas`, `withdrawalsRoot`
 * of Ethereum upstreams; rskj's merged-mining fields). A value that does not parse is an `AnswerError`,
 * which the caller turns into an UPSTREAM_BAD_ANSWER naming the upstream and the key.
 */
import {hexToBytesOrNull} from "@xchain/utils";

/** A value in an answer that is not what was asked for. */
export class AnswerError extends Error {}

/** The fork block's header, as the upstream answered it: the fields the fork uses, and the whole answer. */
export interface ForkHeader {
  number: number;
  hash: Uint8Array;
  parentHash: Uint8Array;
  stateRoot: Uint8Array;
  timestamp: bigint;
  gasLimit: bigint;
  /** 0 where the upstream has none (Ethereum after the merge answers `0x0`). */
  difficulty: bigint;
  /** Ethereum upstreams since London; undefined for rskj and xchain. */
  baseFeePerGas: bigint | undefined;
  /** The block object as answered, without its transactions (kept in the cache as is). */
  json: Record<string, unknown>;
}

/** A hex quantity; leading zeros allowed. */
export function quantity(value: unknown, what: string): bigint {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new AnswerError(`${what} is not a quantity: ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

/** Hex data of exactly `length` bytes (or any length without one). */
export function data(value: unknown, what: string, length?: number): Uint8Array {
  const bytes = typeof value === "string" && value.startsWith("0x") ? hexToBytesOrNull(value.slice(2)) : null;
  if (bytes === null || (length !== undefined && bytes.length !== length)) {
    throw new AnswerError(
      `${what} is not ${length === undefined ? "hex data" : `${length} bytes of hex`}: ${short(value)}`,
    );
  }
  return bytes;
}

/** A storage word: DATA of up to 32 bytes or a QUANTITY, left-padded to 32 bytes. */
export function storageWord(value: unknown, what: string): Uint8Array {
  const n = quantity(typeof value === "string" && value === "0x" ? "0x0" : value, what);
  if (n >> 256n !== 0n) throw new AnswerError(`${what} is more than 32 bytes: ${short(value)}`);
  const word = new Uint8Array(32);
  let rest = n;
  for (let i = 31; i >= 0 && rest > 0n; i--, rest >>= 8n) word[i] = Number(rest & 0xffn);
  return word;
}

/**
 * Raw stored bytes as rskj's `rsk_getStorageBytesAt` answers them: hex data of any length, `"0x0"` (or
 * `"0x"`) for a key with nothing stored; empty then.
 */
export function storedBytes(value: unknown, what: string): Uint8Array {
  if (value === "0x0" || value === "0x") return new Uint8Array(0);
  return data(value, what);
}

/** The fork header of a block object (`eth_getBlockBy*`, transactions as hashes or objects: dropped). */
export function forkHeader(value: unknown): ForkHeader {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AnswerError(`the block is not an object: ${short(value)}`);
  }
  const {transactions: _dropped, ...json} = value as Record<string, unknown>;
  return {
    number: Number(quantity(json.number, "the block's number")),
    hash: data(json.hash, "the block's hash", 32),
    parentHash: data(json.parentHash, "the block's parentHash", 32),
    stateRoot: data(json.stateRoot, "the block's stateRoot", 32),
    timestamp: quantity(json.timestamp, "the block's timestamp"),
    gasLimit: quantity(json.gasLimit, "the block's gasLimit"),
    difficulty: json.difficulty === undefined ? 0n : quantity(json.difficulty, "the block's difficulty"),
    baseFeePerGas:
      json.baseFeePerGas === undefined || json.baseFeePerGas === null
        ? undefined
        : quantity(json.baseFeePerGas, "the block's baseFeePerGas"),
    json,
  };
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/**
 * Byte strings of any length in a native contract's 32-byte storage words (docs/protocol/native-contracts.md
 * §10.4). rskj stores a native contract's values whole under a 32-byte key (`addStorageBytes`); xchain's
 * state holds words, so a value is laid out as Solidity lays out a `bytes` state variable at slot = the key:
 * up to 31 bytes sit in the slot itself, left-aligned, with 2 × length in its last byte; longer values
 * put 2 × length + 1 in the slot and the bytes in the words from keccak256(slot) on, the last one
 * zero-padded. An empty value is no value (rskj deletes the key), so an unset key reads as empty.
 */
import {BRIDGE_ADDRESS} from "@xchain/chainspec";
import {bigIntToFixedBytes, bytesToBigInt, bytesToHex, equalBytes, keccak256, NodeError} from "@xchain/utils";

/** The longest value a native contract keeps under one key (rskj's largest, a peg-out set, stays far below it). */
export const MAX_STORED_VALUE_BYTES = 4 * 1024 * 1024;

export enum NativeStorageErrorCode {
  /** A slot's header announces a value longer than `MAX_STORED_VALUE_BYTES`: not written by a native contract (a dev control's raw write). */
  VALUE_TOO_LONG = "STATE_NATIVE_STORAGE_VALUE_TOO_LONG",
}

export type NativeStorageErrorType = {code: NativeStorageErrorCode.VALUE_TOO_LONG; key: string; length: string};

/** A native contract's storage holds what no native contract writes; the call reading it fails. */
export class NativeStorageError extends NodeError<NativeStorageErrorType> {}

/** A contract account's storage words: `get` answers 32 bytes (zeros when unset), `put` of zeros deletes. */
export interface WordStorage {
  get(slot: Uint8Array): Promise<Uint8Array>;
  put(slot: Uint8Array, word: Uint8Array): Promise<void>;
}

/** The byte strings stored under 32-byte keys, as rskj's `getStorageBytes`/`addStorageBytes` see them. */
export interface BytesStorage {
  /** The value under `key`; empty when unset. */
  getBytes(key: Uint8Array): Promise<Uint8Array>;
  /** Stores `value` under `key`; an empty value deletes it. */
  putBytes(key: Uint8Array, value: Uint8Array): Promise<void>;
}

const ZERO_WORD = new Uint8Array(32);

/** The word after `slot`, as a 256-bit number wrapping around. */
function slotPlus(base: bigint, i: number): Uint8Array {
  return bigIntToFixedBytes((base + BigInt(i)) % 2n ** 256n, 32);
}

/** The number of data words a long value of `length` bytes takes. */
const wordsOf = (length: number): number => Math.ceil(length / 32);

/** The length a header word describes, and whether the value sits in the header (short) or after it. */
function header(key: Uint8Array, word: Uint8Array): {length: number; short: boolean} {
  const last = word[31] as number;
  if ((last & 1) === 0) return {length: Math.min(last >> 1, 31), short: true};
  const length = (bytesToBigInt(word) - 1n) / 2n;
  if (length > BigInt(MAX_STORED_VALUE_BYTES)) {
    throw new NativeStorageError(
      {code: NativeStorageErrorCode.VALUE_TOO_LONG, key: bytesToHex(key), length: length.toString()},
      `native contract storage key 0x${bytesToHex(key)} announces a value of ${length} bytes, more than ${MAX_STORED_VALUE_BYTES}`,
    );
  }
  return {length: Number(length), short: false};
}

/** `BytesStorage` over `words` with the layout above. */
export function bytesStorage(words: WordStorage): BytesStorage {
  async function clearLong(key: Uint8Array, length: number): Promise<void> {
    const base = bytesToBigInt(keccak256(key));
    for (let i = 0; i < wordsOf(length); i++) await words.put(slotPlus(base, i), ZERO_WORD);
  }
  return {
    async getBytes(key) {
      const word = await words.get(key);
      const {length, short} = header(key, word);
      if (short) return word.slice(0, length);
      const base = bytesToBigInt(keccak256(key));
      const value = new Uint8Array(wordsOf(length) * 32);
      for (let i = 0; i < wordsOf(length); i++) value.set(await words.get(slotPlus(base, i)), i * 32);
      return value.subarray(0, length);
    },
    async putBytes(key, value) {
      const previous = header(key, await words.get(key));
      if (!previous.short) await clearLong(key, previous.length);
      if (value.length < 32) {
        const word = new Uint8Array(32);
        word.set(value);
        word[31] = value.length * 2;
        await words.put(key, word);
        return;
      }
      await words.put(key, bigIntToFixedBytes(BigInt(value.length) * 2n + 1n, 32));
      const base = bytesToBigInt(keccak256(key));
      for (let i = 0; i < wordsOf(value.length); i++) {
        const word = new Uint8Array(32);
        word.set(value.subarray(i * 32, i * 32 + 32));
        await words.put(slotPlus(base, i), word);
      }
    },
  };
}

/** True for the native contracts whose storage holds byte strings in this layout: the Bridge. */
export const storesByteStrings = (address: Uint8Array): boolean => equalBytes(address, BRIDGE_ADDRESS);

/**
 * REMASC's state, kept in the REMASC account's storage as rskj keeps it (`RemascStorageProvider`;
 * docs/protocol/native-contracts.md §11.2): each key is the ASCII of a name left-padded to a word,
 * each amount a word without leading zeros. rskj writes `brokenSelectionRule` as one raw byte 00 or 01
 * and `siblings` as the empty list `c0`; xchain's storage holds words, so 01 and c0 read the same
 * and 00 is no entry at all (a zero word).
 */
import type {StateManagerInterface} from "@ethereumjs/common";
import {type Address, setLengthLeft} from "@ethereumjs/util";
import {encodeRlp} from "@xchain/primitives";
import {bigIntToBytes, bytesToBigInt, utf8ToBytes} from "@xchain/utils";

/** A storage key as rskj's `DataWord.fromString` makes it. */
function nameKey(name: string): Uint8Array {
  return setLengthLeft(utf8ToBytes(name), 32);
}

/** REMASC's storage keys. */
export const REMASC_STORAGE_KEYS = {
  rewardBalance: nameKey("rewardBalance"),
  burnedBalance: nameKey("burnedBalance"),
  federationBalance: nameKey("federationBalance"),
  brokenSelectionRule: nameKey("brokenSelectionRule"),
  siblings: nameKey("siblings"),
} as const;

/** rskj's legacy empty siblings list, written on every successful execution. */
const EMPTY_SIBLINGS = Uint8Array.of(0xc0);

/** rskj's one-byte flag. */
const flag = (value: boolean) => Uint8Array.of(value ? 1 : 0);

/** REMASC's values (an absent key reads zero, or false). */
export interface RemascValues {
  /** Matured fees not yet paid out. */
  rewardBalance: bigint;
  /** Wei burned so far: they stay in REMASC's balance for ever. */
  burnedBalance: bigint;
  /** The federation's share deferred under RSKIP-85. */
  federationBalance: bigint;
  /** Whether the last processed block with siblings broke the selection rule. */
  brokenSelectionRule: boolean;
}

/** REMASC's values; a field set during a run is written back by `save`, as rskj's provider does. */
export class RemascStorage {
  private readonly changed = new Set<keyof RemascValues>();

  private constructor(private readonly current: RemascValues) {}

  /** The values stored in `address`'s storage. */
  static async load(state: StateManagerInterface, address: Address): Promise<RemascStorage> {
    const read = (key: Uint8Array) => state.getStorage(address, key);
    const [reward, burned, federation, broken] = await Promise.all([
      read(REMASC_STORAGE_KEYS.rewardBalance),
      read(REMASC_STORAGE_KEYS.burnedBalance),
      read(REMASC_STORAGE_KEYS.federationBalance),
      read(REMASC_STORAGE_KEYS.brokenSelectionRule),
    ]);
    return new RemascStorage({
      rewardBalance: bytesToBigInt(reward),
      burnedBalance: bytesToBigInt(burned),
      federationBalance: bytesToBigInt(federation),
      // rskj reads the flag's first byte; a word without leading zeros is 01 when set.
      brokenSelectionRule: broken.length > 0 && broken[0] !== 0,
    });
  }

  /** The values as they stand. */
  get values(): Readonly<RemascValues> {
    return this.current;
  }

  /** Sets one value, to be written by `save`. */
  set<K extends keyof RemascValues>(key: K, value: RemascValues[K]): void {
    this.current[key] = value;
    this.changed.add(key);
  }

  /** Writes the values set during the run, and the empty siblings list (rskj's `save`, in its order). */
  async save(state: StateManagerInterface, address: Address): Promise<void> {
    const {rewardBalance, burnedBalance, federationBalance, brokenSelectionRule} = this.current;
    // A zero amount (or a false flag) deletes the key: the state stores words.
    const writes: [keyof typeof REMASC_STORAGE_KEYS, Uint8Array][] = [];
    if (this.changed.has("rewardBalance")) writes.push(["rewardBalance", bigIntToBytes(rewardBalance)]);
    if (this.changed.has("burnedBalance")) writes.push(["burnedBalance", bigIntToBytes(burnedBalance)]);
    writes.push(["siblings", EMPTY_SIBLINGS]);
    if (this.changed.has("brokenSelectionRule")) writes.push(["brokenSelectionRule", flag(brokenSelectionRule)]);
    if (this.changed.has("federationBalance")) writes.push(["federationBalance", bigIntToBytes(federationBalance)]);
    for (const [name, value] of writes) await state.putStorage(address, REMASC_STORAGE_KEYS[name], value);
  }

  /**
   * `getStateForDebugging()`'s answer (rskj `RemascState.getEncoded`): RLP [reward, burned, the empty
   * siblings list, one raw byte 00 or 01]; a fresh REMASC's is `c48080c000`.
   */
  encodeStateForDebugging(): Uint8Array {
    const {rewardBalance, burnedBalance, brokenSelectionRule} = this.current;
    return encodeRlp([bigIntToBytes(rewardBalance), bigIntToBytes(burnedBalance), [], flag(brokenSelectionRule)]);
  }
}

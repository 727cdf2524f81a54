/**
 * REMASC's state, kept in the REMASC account's storage as rskj keeps it (`RemascStorageProvider`;
 * docs/protocol/native-contracts.md §8.2): each key is the ASCII of a name left-padded to a word,
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

/** REMASC's values; a field set during a run is written back by `save`, as rskj's provider does. */
export class RemascStorage {
  private readonly changed = new Set<"rewardBalance" | "burnedBalance" | "federationBalance" | "brokenSelectionRule">();

  private constructor(
    private reward: bigint,
    private burned: bigint,
    private federation: bigint,
    private broken: boolean,
  ) {}

  /** The values stored in `address`'s storage (an absent key reads zero, or false). */
  static async load(state: StateManagerInterface, address: Address): Promise<RemascStorage> {
    const read = (key: Uint8Array) => state.getStorage(address, key);
    const [reward, burned, federation, broken] = await Promise.all([
      read(REMASC_STORAGE_KEYS.rewardBalance),
      read(REMASC_STORAGE_KEYS.burnedBalance),
      read(REMASC_STORAGE_KEYS.federationBalance),
      read(REMASC_STORAGE_KEYS.brokenSelectionRule),
    ]);
    // rskj reads the flag's first byte; a word without leading zeros is 01 when set.
    const brokenFlag = broken.length > 0 && broken[0] !== 0;
    return new RemascStorage(bytesToBigInt(reward), bytesToBigInt(burned), bytesToBigInt(federation), brokenFlag);
  }

  /** Matured fees not yet paid out. */
  get rewardBalance(): bigint {
    return this.reward;
  }
  set rewardBalance(value: bigint) {
    this.reward = value;
    this.changed.add("rewardBalance");
  }

  /** Wei burned so far: they stay in REMASC's balance for ever. */
  get burnedBalance(): bigint {
    return this.burned;
  }
  set burnedBalance(value: bigint) {
    this.burned = value;
    this.changed.add("burnedBalance");
  }

  /** The federation's share deferred under RSKIP-85. */
  get federationBalance(): bigint {
    return this.federation;
  }
  set federationBalance(value: bigint) {
    this.federation = value;
    this.changed.add("federationBalance");
  }

  /** Whether the last processed block with siblings broke the selection rule. */
  get brokenSelectionRule(): boolean {
    return this.broken;
  }
  set brokenSelectionRule(value: boolean) {
    this.broken = value;
    this.changed.add("brokenSelectionRule");
  }

  /** Writes the values set during the run, and the empty siblings list (rskj's `save`). */
  async save(state: StateManagerInterface, address: Address): Promise<void> {
    const word = (value: bigint) => bigIntToBytes(value);
    const writes: [keyof typeof REMASC_STORAGE_KEYS, Uint8Array][] = [];
    if (this.changed.has("rewardBalance")) writes.push(["rewardBalance", word(this.reward)]);
    if (this.changed.has("burnedBalance")) writes.push(["burnedBalance", word(this.burned)]);
    writes.push(["siblings", EMPTY_SIBLINGS]);
    if (this.changed.has("brokenSelectionRule"))
      writes.push(["brokenSelectionRule", Uint8Array.of(this.broken ? 1 : 0)]);
    if (this.changed.has("federationBalance")) writes.push(["federationBalance", word(this.federation)]);
    for (const [name, value] of writes) await state.putStorage(address, REMASC_STORAGE_KEYS[name], value);
  }

  /**
   * `getStateForDebugging()`'s answer (rskj `RemascState.getEncoded`): RLP [reward, burned, the empty
   * siblings list, one raw byte 00 or 01]; a fresh REMASC's is `c48080c000`.
   */
  encodeStateForDebugging(): Uint8Array {
    return encodeRlp([bigIntToBytes(this.reward), bigIntToBytes(this.burned), [], Uint8Array.of(this.broken ? 1 : 0)]);
  }
}

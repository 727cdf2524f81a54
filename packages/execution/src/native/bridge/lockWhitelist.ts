/**
 * The lock whitelist (docs/protocol/native-contracts.md §10.12): rskj's `LockWhitelist` and its two
 * storage values (`BridgeSerializationUtils`). `lockWhitelist` is the flattened RLP list
 * `[hash160, max value]* ‖ disable height` of the one-off entries; `unlimitedLockWhitelist` the RLP
 * list of the unlimited entries' hash160s. Entries are kept ordered by hash160 as unsigned bytes
 * (rskj's `TreeMap` by `getHash160`), so two addresses with the same hash160 are one entry.
 */
import {RLP} from "@ethereumjs/rlp";
import {bytesToBigInt, compareBytes} from "@xchain/utils";
import {corrupt, decodeFlatList, longBytes} from "./serialization.ts";

/** A Bitcoin address as the whitelist keeps it: its base58 version byte and hash160. */
export interface BtcAddress {
  readonly version: number;
  readonly hash160: Uint8Array;
}

export interface LockWhitelistEntry {
  readonly address: BtcAddress;
  /** A one-off entry's maximum in satoshis (a 64-bit value); undefined for an unlimited entry. */
  readonly maxTransferValue: bigint | undefined;
}

/** `LockWhitelist`'s disable height until one is set: Java's `Integer.MAX_VALUE`. */
export const NO_DISABLE_HEIGHT = 2 ** 31 - 1;

const INT64_MAX = 2n ** 63n - 1n;

export class LockWhitelist {
  private readonly entries: LockWhitelistEntry[] = [];

  constructor(
    entries: readonly LockWhitelistEntry[] = [],
    public disableBlockHeight = NO_DISABLE_HEIGHT,
  ) {
    for (const entry of entries) this.put(entry);
  }

  get size(): number {
    return this.entries.length;
  }

  private indexOf(hash160: Uint8Array): number {
    return this.entries.findIndex((entry) => compareBytes(entry.address.hash160, hash160) === 0);
  }

  /** The entry at `index` in hash160 order, or undefined out of range. */
  at(index: number): LockWhitelistEntry | undefined {
    return this.entries[index];
  }

  get(address: BtcAddress): LockWhitelistEntry | undefined {
    return this.entries[this.indexOf(address.hash160)];
  }

  /** Adds an entry whose hash160 is not there yet; false when it is. */
  put(entry: LockWhitelistEntry): boolean {
    if (this.indexOf(entry.address.hash160) >= 0) return false;
    const at = this.entries.findIndex((e) => compareBytes(e.address.hash160, entry.address.hash160) > 0);
    this.entries.splice(at < 0 ? this.entries.length : at, 0, entry);
    return true;
  }

  /** Replaces the entry of the same hash160, or adds it (the unlimited list read over the one-off). */
  private set(entry: LockWhitelistEntry): void {
    const index = this.indexOf(entry.address.hash160);
    if (index >= 0) this.entries[index] = entry;
    else this.put(entry);
  }

  remove(address: BtcAddress): boolean {
    const index = this.indexOf(address.hash160);
    if (index < 0) return false;
    this.entries.splice(index, 1);
    return true;
  }

  get isDisableBlockSet(): boolean {
    return this.disableBlockHeight < NO_DISABLE_HEIGHT;
  }

  /** `serializeOneOffLockWhitelist`: the one-off entries in order, then the disable height. */
  encodeOneOff(): Uint8Array {
    const items: Uint8Array[] = [];
    for (const {address, maxTransferValue} of this.entries) {
      if (maxTransferValue !== undefined) items.push(address.hash160, longBytes(maxTransferValue));
    }
    items.push(longBytes(BigInt(this.disableBlockHeight)));
    return RLP.encode(items);
  }

  /** `serializeUnlimitedLockWhitelist`: the unlimited entries' hash160s in order. */
  encodeUnlimited(): Uint8Array {
    return RLP.encode(this.entries.filter((e) => e.maxTransferValue === undefined).map((e) => e.address.hash160));
  }

  /**
   * `WhitelistStorageProviderImpl.getLockWhitelist`: with no one-off value the whitelist is empty
   * (the unlimited one is not read); otherwise the entries of both, each address rebuilt as a P2PKH
   * address of the network (`new Address(params, hash160)`), an unlimited entry replacing a one-off
   * one of the same hash160.
   */
  static decode(oneOff: Uint8Array, unlimited: Uint8Array, p2pkhVersion: number): LockWhitelist {
    if (oneOff.length === 0) return new LockWhitelist();
    const items = decodeFlatList("lockWhitelist", oneOff, 1);
    if (items.length === 0 || (items.length - 1) % 2 !== 0) {
      throw corrupt("lockWhitelist", oneOff, "expected [hash160, max value]* and the disable height");
    }
    const address = (name: string, value: Uint8Array, hash160: Uint8Array): BtcAddress => {
      if (hash160.length !== 20) throw corrupt(name, value, "a hash160 that is not 20 bytes");
      return {version: p2pkhVersion, hash160};
    };
    const disableBlockHeight = bytesToBigInt(items[items.length - 1] as Uint8Array);
    if (disableBlockHeight > BigInt(NO_DISABLE_HEIGHT))
      throw corrupt("lockWhitelist", oneOff, "a disable height past an int");
    const whitelist = new LockWhitelist([], Number(disableBlockHeight));
    for (let i = 0; i + 1 < items.length; i += 2) {
      const maxTransferValue = bytesToBigInt(items[i + 1] as Uint8Array);
      if (maxTransferValue > INT64_MAX) throw corrupt("lockWhitelist", oneOff, "a max value past a long");
      whitelist.set({address: address("lockWhitelist", oneOff, items[i] as Uint8Array), maxTransferValue});
    }
    for (const hash160 of decodeFlatList("unlimitedLockWhitelist", unlimited, 1)) {
      whitelist.set({address: address("unlimitedLockWhitelist", unlimited, hash160), maxTransferValue: undefined});
    }
    return whitelist;
  }
}

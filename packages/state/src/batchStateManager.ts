import type {MerklePatriciaTrie} from "@ethereumjs/mpt";
import {RLP} from "@ethereumjs/rlp";
import {CODEHASH_PREFIX, MerkleStateManager} from "@ethereumjs/statemanager";
import {
  Account,
  type Address,
  createAccountFromRLP,
  createAddressFromString,
  EthereumJSErrorWithoutCode,
  unpadBytes,
} from "@ethereumjs/util";
import {bytesToHex, concatBytes, hexToBytes, keccak256} from "@xchain/utils";
import {applyTrieWrites, type TrieWrite} from "./batchTrie.ts";
import {DecodedTop} from "./decodedTop.ts";
import {SessionTrieDB} from "./sessionDb.ts";
import {lookupTrieValue, type TrieNodeSource} from "./trieLookup.ts";

/**
 * Levels of the account trie kept decoded between flushes (`DecodedTop`): at most 273 nodes; a few
 * million accounts make about six levels, the upper three shared by every block's accounts.
 */
const ACCOUNT_LEVELS = 3;
/** Levels of each storage trie kept decoded (at most 17 nodes; a session may touch many contracts). */
const STORAGE_LEVELS = 2;

/** RLP of the empty value: what the storage cache holds for an empty slot. */
const RLP_EMPTY = Uint8Array.of(0x80);

/**
 * A `MerkleStateManager` whose flush (at the outermost commit, and before reading the state root)
 * writes the caches into the tries in one `applyTrieWrites` pass per trie: each touched node is
 * hashed once per flush, not once per account or slot update. The result (roots, the nodes in the
 * trie's database, the accounts and storage tries in the caches) is the one of the stock flush.
 */
export class BatchFlushStateManager extends MerkleStateManager {
  /**
   * When set, every flush adds the preimage of each account and slot key it writes, by the key's
   * hex (`StateOptions.recordPreimages`); the session's commit hands them out with the trie writes.
   */
  preimages: Map<string, Uint8Array> | undefined;

  /** The upper levels of each trie kept decoded between flushes, by trie (the account trie's and the storage tries'). */
  private readonly decodedTops = new WeakMap<MerklePatriciaTrie, DecodedTop>();

  /** The stock method with `lookupTrieValue` reading the trie on a cache miss. */
  override async getAccount(address: Address): Promise<Account | undefined> {
    const cached = this._caches?.account?.get(address);
    if (cached !== undefined)
      return cached.accountRLP === undefined ? undefined : createAccountFromRLP(cached.accountRLP);
    const trie = this._trie;
    const rlp = await lookupTrieValue(
      nodeSourceOf(trie),
      trie.root(),
      keccak256(address.bytes),
      this.decodedTops.get(trie),
    );
    const account = rlp === undefined ? undefined : createAccountFromRLP(rlp);
    this._caches?.account?.put(address, account);
    return account;
  }

  /** The stock method with `lookupTrieValue` reading the account's storage trie on a cache miss. */
  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode("Storage key must be 32 bytes long");
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const account = await this.getAccount(address);
    if (account === undefined) return new Uint8Array();
    const trie = this._getStorageTrie(address, account);
    const value = await lookupTrieValue(nodeSourceOf(trie), trie.root(), keccak256(key), this.decodedTops.get(trie));
    this._caches?.storage?.put(address, key, value ?? RLP_EMPTY);
    return RLP.decode(value ?? new Uint8Array(0)) as Uint8Array;
  }

  /**
   * With a storage cache, only the cache takes the write; the flush applies it. (The stock method
   * means to do the same, but `cache.put(...) ?? write()` always writes the trie too, as `put`
   * returns undefined: one full MPT update per SSTORE.) Until the flush, the account's storage root
   * is the one of the last flush; execution only compares it with the empty root, in the CREATE
   * collision check, and every account whose storage code can write has a nonce (Shanghai rules
   * give a new contract nonce 1 before its init code runs), which that check looks at first.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const storage = this._caches?.storage;
    if (storage === undefined) return super.putStorage(address, key, value);
    // The stock method's checks and messages.
    if (key.length !== 32) throw EthereumJSErrorWithoutCode("Storage key must be 32 bytes long");
    if (value.length > 32) throw EthereumJSErrorWithoutCode("Storage value cannot be longer than 32 bytes");
    if ((await this.getAccount(address)) === undefined) {
      throw EthereumJSErrorWithoutCode("putStorage() called on non-existing account");
    }
    storage.put(address, key, RLP.encode(unpadBytes(value)));
  }

  override async flush(): Promise<void> {
    const caches = this._caches;
    if (caches === undefined) return super.flush();
    // Code first: it may create accounts and set code hashes, which the account pass then writes.
    for (const [addressHex, {code}] of caches.code?.flush() ?? []) {
      if (code === undefined) continue;
      const address = createAddressFromString(`0x${addressHex}`);
      const codeHash = keccak256(code);
      await this._getCodeDB().put(this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, code);
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
      await this.modifyAccountFields(address, {codeHash});
    }
    await this.flushStorage(caches.storage?.flush() ?? []);
    const accountWrites: TrieWrite[] = [];
    for (const [addressHex, {accountRLP}] of caches.account?.flush() ?? []) {
      accountWrites.push([this.hashedKey(addressHex), accountRLP]);
    }
    if (accountWrites.length > 0) {
      const trie = this._trie;
      trie.root(
        await applyTrieWrites(trie.database(), trie.root(), accountWrites, this.decodedTop(trie, ACCOUNT_LEVELS)),
      );
    }
  }

  private decodedTop(trie: MerklePatriciaTrie, levels: number): DecodedTop {
    let top = this.decodedTops.get(trie);
    if (top === undefined) {
      top = new DecodedTop(levels);
      this.decodedTops.set(trie, top);
    }
    return top;
  }

  /** keccak256 of an address or slot given in hex, its preimage noted when recording. */
  private hashedKey(keyHex: string): Uint8Array {
    const key = hexToBytes(keyHex);
    const hash = keccak256(key);
    this.preimages?.set(bytesToHex(hash), key);
    return hash;
  }

  /** Each account's slot writes in one pass over its storage trie; the new storage root goes to the account cache. */
  private async flushStorage(items: [string, string, Uint8Array | undefined][]): Promise<void> {
    const byAccount = new Map<string, TrieWrite[]>();
    for (const [addressHex, slotHex, encoded] of items) {
      let writes = byAccount.get(addressHex);
      if (writes === undefined) {
        writes = [];
        byAccount.set(addressHex, writes);
      }
      // The cache holds RLP(value), 0x80 for zero: the trie stores RLP of the unpadded value, and deletes zero.
      const value = RLP.decode(encoded ?? new Uint8Array(0)) as Uint8Array;
      writes.push([this.hashedKey(slotHex), value.length > 0 ? RLP.encode(value) : undefined]);
    }
    for (const [addressHex, writes] of byAccount) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      // The stock flush drops the writes of an account that no longer exists.
      if (account === undefined) continue;
      const trie = this._getStorageTrie(address, account);
      trie.root(await applyTrieWrites(trie.database(), trie.root(), writes, this.decodedTop(trie, STORAGE_LEVELS)));
      account.storageRoot = trie.root();
      await this.putAccount(address, account);
    }
  }
}

/**
 * A trie's database as the node source of `lookupTrieValue`: the checkpoint layers first (they hold
 * what is newer than the database below), then that database directly. Reading through the
 * CheckpointDB itself would copy every node read inside a checkpoint into it, and its outermost
 * commit would hand each of a block's reads back to the session as a write.
 */
function nodeSourceOf(trie: MerklePatriciaTrie): TrieNodeSource {
  const checkpointDb = trie.database();
  const below = checkpointDb.db;
  const inMemory = below instanceof SessionTrieDB ? (keyHex: string) => below.cached(keyHex) : () => undefined;
  const fromCheckpoints = (keyHex: string): {value: Uint8Array | undefined} | undefined => {
    const {checkpoints} = checkpointDb;
    for (let i = checkpoints.length - 1; i >= 0; i--) {
      const map = (checkpoints[i] as (typeof checkpoints)[number]).keyValueMap;
      if (map.has(keyHex)) return {value: map.get(keyHex)};
    }
    return undefined;
  };
  return {
    cachedNode(hash) {
      const keyHex = bytesToHex(hash);
      const checkpointed = fromCheckpoints(keyHex);
      return checkpointed === undefined ? inMemory(keyHex) : checkpointed.value;
    },
    async node(hash) {
      const keyHex = bytesToHex(hash);
      const checkpointed = fromCheckpoints(keyHex);
      if (checkpointed !== undefined) return checkpointed.value;
      const value = await below.get(keyHex);
      // The trie uses ValueEncoding.Bytes; a string-valued database holds hex (as CheckpointDB reads it).
      return typeof value === "string" ? hexToBytes(value) : value;
    },
  };
}

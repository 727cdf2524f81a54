import {createMerkleProof, type MerklePatriciaTrie} from "@ethereumjs/mpt";
import {RLP} from "@ethereumjs/rlp";
import {CODEHASH_PREFIX} from "@ethereumjs/statemanager";
import {createAccountFromRLP} from "@ethereumjs/util";
import {bytesToHex, concatBytes, equalBytes, keccak256} from "@xchain/utils";
import {LRUCache} from "lru-cache";
import {checkLength} from "./errors.ts";
import {type FlatSource, NOT_FLAT, type StateReadCounts} from "./flat/flatView.ts";
import {EMPTY_CODE_HASH, EMPTY_TRIE_ROOT} from "./trie.ts";
import {lookupTrieValue, lookupTrieValueInMemory, NOT_IN_MEMORY, type TrieNodeSource} from "./trieLookup.ts";
import type {AccountState, StateReader} from "./types.ts";

const EMPTY = new Uint8Array(0);
const ZERO_WORD = new Uint8Array(32);

/**
 * Estimated heap bytes of one entry of a reader's caches, key and LRU bookkeeping included: an
 * account (a 40-digit key, two bigints and two 32-byte arrays: 685 bytes measured over 50,000) and a
 * storage word (a 104-digit key and a 32-byte array).
 */
export const ACCOUNT_ENTRY_BYTES = 700;
const STORAGE_ENTRY_BYTES = 350;
/** A code entry beyond the code: its 64-digit key, the array and the LRU's bookkeeping. */
const CODE_ENTRY_BYTES = 250;

/**
 * An LRU of at most `maxBytes` (each entry costing `entryBytes`) that grows as it fills: bounded by
 * `max`, lru-cache allocates its whole index up front (about 1 ms per 20,000 entries), paid by every
 * reader, hence at every new head, on each thread that reads. Undefined for a zero budget.
 */
export function growingLru<V extends {}>(maxBytes: number, entryBytes: number): LRUCache<string, V> | undefined {
  return maxBytes >= entryBytes
    ? new LRUCache<string, V>({maxSize: maxBytes, sizeCalculation: () => entryBytes})
    : undefined;
}

/** Contract code by code hash, shared by every reader: code never changes under its hash. */
export class CodeCache {
  private readonly entries: LRUCache<string, Uint8Array> | undefined;

  constructor(readonly maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache({maxSize: maxBytes, sizeCalculation: (code) => code.length + CODE_ENTRY_BYTES})
        : undefined;
  }

  get(codeHash: Uint8Array): Uint8Array | undefined {
    return this.entries?.get(bytesToHex(codeHash));
  }

  set(codeHash: Uint8Array, code: Uint8Array): void {
    // A code larger than the whole budget is not kept (lru-cache refuses it anyway).
    if (code.length + CODE_ENTRY_BYTES <= this.maxBytes) this.entries?.set(bytesToHex(codeHash), code);
  }

  /**
   * The code of `account` (empty for none or a missing account): cached by hash, else `load`ed and
   * cached (code never changes under its hash).
   */
  async codeOf(
    account: AccountState | undefined,
    load: (codeHash: Uint8Array) => Promise<Uint8Array>,
  ): Promise<Uint8Array> {
    if (account === undefined || equalBytes(account.codeHash, EMPTY_CODE_HASH)) return EMPTY;
    const cached = this.get(account.codeHash);
    if (cached !== undefined) return cached;
    const code = await load(account.codeHash);
    this.set(account.codeHash, code);
    return code;
  }

  /** Estimated bytes held. */
  bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}

/** A balance and a nonce are their account's: what every reader derives from `getAccount`. */
export abstract class AccountReader {
  abstract getAccount(address: Uint8Array): Promise<AccountState | undefined>;

  async getBalance(address: Uint8Array): Promise<bigint> {
    return (await this.getAccount(address))?.balance ?? 0n;
  }

  async getNonce(address: Uint8Array): Promise<bigint> {
    return (await this.getAccount(address))?.nonce ?? 0n;
  }
}

// Absent accounts are cached too: most reads of a missing address repeat.
const MISSING = false;

/**
 * A read-only view of the state at one root: from the flat state when it holds that root
 * (flat/flatView.ts), else straight from the trie. It only reads, so its caches (bounded LRUs, no
 * journal) stay valid for its whole life; the accounts it returns are shared and must not be mutated.
 */
export class TrieStateReader extends AccountReader implements StateReader {
  private readonly accounts: LRUCache<string, AccountState | typeof MISSING> | undefined;
  private readonly storage: LRUCache<string, Uint8Array> | undefined;

  /**
   * `trie` (the account trie at `root`) serves proofs and code; values are read from `nodes`.
   * `cacheBytes`: the budget of this reader's account and storage caches (half each). `flat`: the
   * flat state seen at `root`, asked first; `counts` tells how each miss of the caches was served.
   */
  constructor(
    readonly root: Uint8Array,
    private readonly trie: MerklePatriciaTrie,
    private readonly nodes: TrieNodeSource,
    private readonly code: CodeCache,
    cacheBytes: number,
    private readonly counts: StateReadCounts,
    private readonly flat?: FlatSource,
  ) {
    super();
    this.accounts = growingLru(cacheBytes / 2, ACCOUNT_ENTRY_BYTES);
    this.storage = growingLru(cacheBytes / 2, STORAGE_ENTRY_BYTES);
  }

  /** Estimated bytes its account and storage caches hold. */
  cacheBytes(): number {
    return (this.accounts?.calculatedSize ?? 0) + (this.storage?.calculatedSize ?? 0);
  }

  async getAccount(address: Uint8Array): Promise<AccountState | undefined> {
    checkLength(address, 20, "address");
    const cached = this.accounts?.get(bytesToHex(address));
    if (cached !== undefined) return cached === MISSING ? undefined : cached;
    const inMemory = this.accountInMemory(address);
    if (inMemory !== NOT_IN_MEMORY) {
      this.counts.trie++;
      return inMemory;
    }
    const hashed = keccak256(address);
    const served = this.flat !== undefined ? await this.flat.get(hashed) : NOT_FLAT;
    if (served === NOT_FLAT) this.counts.trie++;
    return this.keepAccount(
      address,
      served !== NOT_FLAT ? served : await lookupTrieValue(this.nodes, this.root, hashed),
    );
  }

  /** The account from this reader's cache or from the trie's nodes in memory, without waiting. */
  private accountAtHand(address: Uint8Array): AccountState | undefined | typeof NOT_IN_MEMORY {
    const cached = this.accounts?.get(bytesToHex(address));
    if (cached !== undefined) return cached === MISSING ? undefined : cached;
    return this.accountInMemory(address);
  }

  /** The account when the trie's nodes on its path are all in memory (then kept in the cache). */
  private accountInMemory(address: Uint8Array): AccountState | undefined | typeof NOT_IN_MEMORY {
    const rlp = lookupTrieValueInMemory(this.nodes, this.root, keccak256(address));
    return rlp === NOT_IN_MEMORY ? NOT_IN_MEMORY : this.keepAccount(address, rlp);
  }

  private keepAccount(address: Uint8Array, rlp: Uint8Array | undefined): AccountState | undefined {
    const account = rlp === undefined ? undefined : createAccountFromRLP(rlp);
    const state =
      account === undefined
        ? undefined
        : {
            nonce: account.nonce,
            balance: account.balance,
            codeHash: account.codeHash,
            storageRoot: account.storageRoot,
          };
    this.accounts?.set(bytesToHex(address), state ?? MISSING);
    return state;
  }

  async getCode(address: Uint8Array): Promise<Uint8Array> {
    return this.code.codeOf(
      await this.getAccount(address),
      async (codeHash) => (await this.trie.database().get(concatBytes(CODEHASH_PREFIX, codeHash))) ?? EMPTY,
    );
  }

  async getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    checkLength(slot, 32, "slot");
    const key = bytesToHex(address) + bytesToHex(slot);
    const cached = this.storage?.get(key);
    if (cached !== undefined) return cached;
    const stored = await this.storedWord(address, slot);
    let value: Uint8Array = ZERO_WORD;
    if (stored !== undefined) {
      // Left-padded to a word; `setLengthLeft` pads through an array spread, slow on this path.
      const bytes = RLP.decode(stored) as Uint8Array;
      value = new Uint8Array(32);
      value.set(bytes, 32 - bytes.length);
    }
    this.storage?.set(key, value);
    return value;
  }

  /**
   * A storage trie's value (RLP of the word), undefined for an empty slot or a missing account. The
   * trie answers first when the account and the slot's path are in memory (no wait at all); else the
   * flat state, when it serves this reader's root, in one store read (no account read); else the
   * account's storage trie is walked down the store.
   */
  private async storedWord(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array | undefined> {
    const hashedSlot = keccak256(slot);
    const atHand = this.accountAtHand(address);
    if (atHand !== NOT_IN_MEMORY) {
      const inMemory =
        atHand === undefined ? undefined : lookupTrieValueInMemory(this.nodes, atHand.storageRoot, hashedSlot);
      if (inMemory !== NOT_IN_MEMORY) {
        this.counts.trie++;
        return inMemory;
      }
    }
    if (this.flat !== undefined) {
      const flat = await this.flat.get(concatBytes(keccak256(address), hashedSlot));
      if (flat !== NOT_FLAT) return flat;
    }
    const account = await this.getAccount(address);
    if (account === undefined || equalBytes(account.storageRoot, EMPTY_TRIE_ROOT)) return undefined;
    this.counts.trie++;
    return lookupTrieValue(this.nodes, account.storageRoot, hashedSlot);
  }

  accountProof(address: Uint8Array): Promise<Uint8Array[]> {
    checkLength(address, 20, "address");
    return createMerkleProof(this.trie, address);
  }

  async storageProof(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array[]> {
    checkLength(slot, 32, "slot");
    const account = await this.getAccount(address);
    if (account === undefined || equalBytes(account.storageRoot, EMPTY_TRIE_ROOT)) return [];
    return createMerkleProof(this.storageTrie(account.storageRoot), slot);
  }

  private storageTrie(storageRoot: Uint8Array): MerklePatriciaTrie {
    const trie = this.trie.shallowCopy(false);
    trie.root(storageRoot);
    return trie;
  }
}

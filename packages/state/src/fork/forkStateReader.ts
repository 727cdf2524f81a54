/**
 * A read-only view of a forked state: what the node wrote, from the delta trie at `root`, and
 * everything else from the base (docs/architecture.md, "The forked state"). It only reads: nothing
 * read from the base is ever written to the delta.
 */
import {RLP} from "@ethereumjs/rlp";
import {CODEHASH_PREFIX} from "@ethereumjs/statemanager";
import {encodeRlp} from "@xchain/primitives";
import {bytesToHex, bytesToPrefixedHex, concatBytes, equalBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import type {LRUCache} from "lru-cache";
import {checkLength, StateError, StateErrorCode} from "../errors.ts";
import {ACCOUNT_ENTRY_BYTES, AccountReader, type CodeCache, growingLru} from "../reader.ts";
import type {ReadOnlyTrieDB} from "../readOnlyDb.ts";
import {EMPTY_TRIE_ROOT} from "../trie.ts";
import {lookupTrieValue} from "../trieLookup.ts";
import type {AccountState, StateReader} from "../types.ts";
import {type DeltaAccount, decodeDeltaAccount, isEmptyDelta, WIPED_KEY, WIPED_VALUE} from "./deltaEncoding.ts";
import type {StateBase} from "./stateBase.ts";

const ZERO_WORD = new Uint8Array(32);

/** The root of a storage delta holding only the wiped marker: the storage is empty. */
export const WIPED_ONLY_ROOT: Uint8Array = keccak256(
  encodeRlp([concatBytes(Uint8Array.of(0x20), WIPED_KEY), RLP.encode(WIPED_VALUE)]),
);

/**
 * The storage root reported for an account whose base storage is not empty but unknown (an upstream
 * without `eth_getProof`): any non-empty value serves, only its emptiness is ever looked at (EIP-7610).
 */
const BASE_STORAGE_ROOT: Uint8Array = keccak256(utf8ToBytes("xchain fork: the base's storage"));

export class ForkStateReader extends AccountReader implements StateReader {
  /** The delta's answers by address (only those: base answers are the base's to cache). */
  private readonly accounts: LRUCache<string, DeltaAccount> | undefined;

  constructor(
    readonly root: Uint8Array,
    readonly nodes: ReadOnlyTrieDB,
    private readonly code: CodeCache,
    readonly base: StateBase,
    cacheBytes: number,
  ) {
    super();
    this.accounts = growingLru(cacheBytes, ACCOUNT_ENTRY_BYTES);
  }

  /** What the delta holds for `address`: a written account, a tombstone, or nothing. */
  async deltaAccount(address: Uint8Array): Promise<DeltaAccount> {
    checkLength(address, 20, "address");
    const key = bytesToHex(address);
    const cached = this.accounts?.get(key);
    if (cached !== undefined) return cached;
    const delta = decodeDeltaAccount(await lookupTrieValue(this.nodes, this.root, keccak256(address)));
    this.accounts?.set(key, delta);
    return delta;
  }

  /** Whether a storage delta hides the base's slots (its storage was cleared). */
  async isWiped(storageDelta: Uint8Array): Promise<boolean> {
    return !isEmptyDelta(storageDelta) && (await lookupTrieValue(this.nodes, storageDelta, WIPED_KEY)) !== undefined;
  }

  async getAccount(address: Uint8Array): Promise<AccountState | undefined> {
    const delta = await this.deltaAccount(address);
    if (delta.kind === "deleted") return undefined;
    if (delta.kind === "none") {
      const base = await this.base.account(address);
      return base === undefined ? undefined : {...base, storageRoot: await this.baseStorageRoot(address)};
    }
    return {
      nonce: delta.nonce,
      balance: delta.balance,
      codeHash: delta.codeHash,
      storageRoot: await this.storageRootOf(address, delta.storageDelta),
    };
  }

  async getCode(address: Uint8Array): Promise<Uint8Array> {
    // Code written locally is stored by hash; a base account's code stays the base's.
    return this.code.codeOf(
      await this.getAccount(address),
      async (codeHash) =>
        (await this.nodes.find(bytesToHex(concatBytes(CODEHASH_PREFIX, codeHash)))) ??
        (await this.base.code(address, codeHash)),
    );
  }

  async getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    checkLength(slot, 32, "slot");
    const delta = await this.deltaAccount(address);
    if (delta.kind === "deleted") return ZERO_WORD;
    if (delta.kind === "written" && !isEmptyDelta(delta.storageDelta)) {
      const stored = await lookupTrieValue(this.nodes, delta.storageDelta, keccak256(slot));
      // A slot tombstone (0x00) decodes to the zero word like any value.
      if (stored !== undefined) return word(RLP.decode(stored) as Uint8Array);
      if (await this.isWiped(delta.storageDelta)) return ZERO_WORD;
    }
    // An account the base lacks, or whose storage it knows empty, costs the base no slot request.
    const base = await this.base.account(address);
    if (base === undefined || base.storageEmpty === true) return ZERO_WORD;
    return this.base.storage(address, slot);
  }

  accountProof(): Promise<Uint8Array[]> {
    return this.refuseProof();
  }

  storageProof(): Promise<Uint8Array[]> {
    return this.refuseProof();
  }

  /** Estimated bytes its delta cache holds. */
  cacheBytes(): number {
    return this.accounts?.calculatedSize ?? 0;
  }

  /**
   * The storage root reported for a written account: only its emptiness means anything (EIP-7610's
   * collision check). A wiped delta with no slot is empty; a delta that says nothing is the base's;
   * otherwise the delta root (not empty; it can only overstate when every local write was a zero).
   */
  private async storageRootOf(address: Uint8Array, storageDelta: Uint8Array): Promise<Uint8Array> {
    if (equalBytes(storageDelta, WIPED_ONLY_ROOT)) return EMPTY_TRIE_ROOT;
    if (isEmptyDelta(storageDelta)) return this.baseStorageRoot(address);
    return storageDelta;
  }

  private async baseStorageRoot(address: Uint8Array): Promise<Uint8Array> {
    const base = await this.base.account(address);
    if (base === undefined || base.storageEmpty !== false) return base?.storageRoot ?? EMPTY_TRIE_ROOT;
    return base.storageRoot ?? BASE_STORAGE_ROOT;
  }

  private async refuseProof(): Promise<never> {
    const root = bytesToPrefixedHex(this.root);
    throw new StateError(
      {code: StateErrorCode.FORK_PROOF_UNAVAILABLE, root},
      `no Merkle proof of the forked state ${root}: its root commits to the node's own writes only; ask the upstream for proofs at or below the fork block`,
    );
  }
}

function word(value: Uint8Array): Uint8Array {
  if (value.length === 32) return value;
  const out = new Uint8Array(32);
  out.set(value, 32 - value.length);
  return out;
}

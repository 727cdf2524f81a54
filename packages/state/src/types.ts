/**
 * The contract of the state package. The chain and execution packages are written
 * against these interfaces; `StateDatabase` in this package implements them over a
 * `KeyValueStore` (bucket `stateTrie`) with @ethereumjs/mpt and @ethereumjs/statemanager.
 */
import type {Common, StateManagerInterface} from "@ethereumjs/common";
import type {BatchOp} from "@xchain/db";

/** An account as RPC and the txpool read it. */
export interface AccountState {
  nonce: bigint;
  balance: bigint;
  codeHash: Uint8Array;
  storageRoot: Uint8Array;
}

/** Read-only view of the world state at one state root (RPC, txpool admission, historical queries). */
export interface StateReader {
  readonly root: Uint8Array;
  /** undefined when the account does not exist (rskj distinguishes existence from emptiness). */
  getAccount(address: Uint8Array): Promise<AccountState | undefined>;
  getBalance(address: Uint8Array): Promise<bigint>;
  getNonce(address: Uint8Array): Promise<bigint>;
  /** Empty for an account without code or a missing account. */
  getCode(address: Uint8Array): Promise<Uint8Array>;
  /** The 32-byte value of a storage slot (zero-padded; all zeros when unset). */
  getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>;
  /**
   * The account trie's nodes (RLP, root first) on the path keccak256(address): an inclusion proof,
   * or an exclusion proof for a missing account (docs/protocol/proofs.md §1).
   */
  accountProof(address: Uint8Array): Promise<Uint8Array[]>;
  /**
   * The account's storage trie nodes (RLP, root first) on the path keccak256(slot); empty when the
   * account is missing or has no storage (docs/protocol/proofs.md §1).
   */
  storageProof(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array[]>;
}

/** What a block import or block assembly writes: the new root and every trie write as bucket-prefixed ops. */
export interface StateCommit {
  root: Uint8Array;
  writes: BatchOp[];
}

/**
 * A writable session over the state at one root. Execution mutates `stateManager`; nothing reaches
 * the database until the caller writes `commit().writes` in its own batch (block import writes them
 * together with the block, so a crash leaves either both or neither). Reads inside the session see
 * the session's own writes.
 */
export interface StateSession {
  /** A trie-backed state manager, or an overlay over a base for a forked state: use the interface only. */
  readonly stateManager: StateManagerInterface;
  /** Flushes caches into the trie and returns the new root and the trie writes; the session stays usable. */
  commit(): Promise<StateCommit>;
  /**
   * The caller is done with the session: the source may hand it, caches warm, to the next
   * `openSession` at the root of its last commit once that root is persisted. Do not use it after.
   */
  release(): void;
}

/** A genesis allocation entry. */
export interface GenesisAccount {
  balance: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** [32-byte slot, value] pairs; zero values are skipped. */
  storage?: [Uint8Array, Uint8Array][];
}

/** Opens sessions and readers over persisted state. */
export interface StateSource {
  /**
   * A writable session at `root` (the parent block's state root); throws STATE_ROOT_MISSING when
   * unknown. By default a session released at that root is handed out again (see `release`).
   * A `transient` session (one block, never committed: tracing) leaves the released one for the
   * next block and keeps caches sized for a single block.
   */
  openSession(root: Uint8Array, common: Common, options?: {transient?: boolean}): Promise<StateSession>;
  /** A read-only view at `root`; throws STATE_ROOT_MISSING when unknown. */
  reader(root: Uint8Array, common: Common): Promise<StateReader>;
  /** Whether the trie node of `root` is stored (the empty-trie root always is). */
  hasRoot(root: Uint8Array): Promise<boolean>;
}

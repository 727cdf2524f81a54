/**
 * The state of a call (eth_call, eth_estimateGas): a journaled in-memory overlay over a read-only
 * `StateReader`. Writes never reach the trie, a checkpoint is a journal position, and `reset()`
 * drops everything, so one EVM serves call after call while the reader's caches stay warm (a
 * trie-backed state manager clears its caches on every revert to depth 0).
 */
import type {AccountFields, StateManagerInterface} from "@ethereumjs/common";
import {Account, type Address} from "@ethereumjs/util";
import {bytesToHex, equalBytes, keccak256} from "@xchain/utils";
import {StateError, StateErrorCode} from "./errors.ts";
import {EMPTY_CODE_HASH} from "./trie.ts";
import type {AccountState, StateReader} from "./types.ts";

const EMPTY = new Uint8Array(0);

/** One account's storage writes; `cleared` hides the base storage (a new contract, a deleted account). */
export interface StorageOverlay {
  cleared: boolean;
  slots: Map<string, Uint8Array>;
}

/** An overlay's writes by unprefixed address hex: null is a deleted account. */
export interface NetWrites {
  accounts: ReadonlyMap<string, Account | null>;
  code: ReadonlyMap<string, Uint8Array>;
  storage: ReadonlyMap<string, Readonly<StorageOverlay>>;
}

/**
 * An address's key in the overlay's maps: unprefixed lower-case hex, made by utils' `bytesToHex`, a
 * flat string in one step where @ethereumjs/util's builds it a digit pair at a time (about 40 % less
 * per read; a call makes a dozen).
 */
function addressKey(address: Address): string {
  return bytesToHex(address.bytes);
}

/** How to undo one write. */
type Undo =
  | {kind: "account"; key: string; previous: Account | null | undefined}
  | {kind: "code"; key: string; previous: Uint8Array | undefined}
  | {kind: "slot"; overlay: StorageOverlay; slot: string; previous: Uint8Array | undefined}
  | {kind: "storage"; key: string; previous: StorageOverlay | undefined};

function strip(value: Uint8Array): Uint8Array {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return i === 0 ? value : value.subarray(i);
}

// The EVM mutates the accounts it reads before putting them back: each read gets its own copy.
function copyAccount(account: AccountState): Account {
  return new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
}

export class OverlayStateManager implements StateManagerInterface {
  /** null: deleted in the overlay; absent: read from the base. */
  private readonly accounts = new Map<string, Account | null>();
  private readonly code = new Map<string, Uint8Array>();
  private readonly storage = new Map<string, StorageOverlay>();
  private readonly journal: Undo[] = [];
  private readonly checkpoints: number[] = [];
  /** The storage writes `settle()` made the call's starting state; empty otherwise. */
  private readonly settled = new Map<string, StorageOverlay>();

  readonly originalStorageCache = {
    // A call is one transaction on the base state, as `settle()` left it: its original values are those.
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => {
      const overlay = this.settled.get(addressKey(address));
      const own = overlay?.slots.get(bytesToHex(key));
      if (own !== undefined) return own;
      if (overlay?.cleared) return EMPTY;
      return strip(await this.base.getStorage(address.bytes, key));
    },
    clear: (): void => {},
  };

  constructor(private base: StateReader) {}

  /** Drops every write and checkpoint; with `base`, reads from then on come from that state. */
  reset(base?: StateReader): void {
    if (base) this.base = base;
    // Each call resets twice (when its context is taken and when it is given back), and clearing a
    // Map allocates its table anew even when it is empty: only what holds something is cleared.
    if (this.accounts.size > 0) this.accounts.clear();
    if (this.code.size > 0) this.code.clear();
    if (this.storage.size > 0) this.storage.clear();
    this.journal.length = 0;
    this.checkpoints.length = 0;
    if (this.settled.size > 0) this.settled.clear();
  }

  /**
   * Makes the writes so far the call's starting state (a state override, docs/protocol/state-override.md
   * §3): no revert undoes them, and their slots are SSTORE's original values.
   */
  settle(): void {
    this.journal.length = 0;
    this.checkpoints.length = 0;
    this.settled.clear();
    for (const [key, overlay] of this.storage) {
      this.settled.set(key, {cleared: overlay.cleared, slots: new Map(overlay.slots)});
    }
  }

  /**
   * The writes so far, net of reverts, as read-only views (a forked session commits them into its
   * delta trie); undefined while a checkpoint is open, as the writes are not final then.
   */
  netWrites(): NetWrites | undefined {
    if (this.checkpoints.length > 0) return undefined;
    return {accounts: this.accounts, code: this.code, storage: this.storage};
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const own = this.accounts.get(addressKey(address));
    if (own !== undefined) return own === null ? undefined : copyAccount(own);
    const state = await this.base.getAccount(address.bytes);
    return state === undefined ? undefined : copyAccount(state);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    this.setAccount(addressKey(address), copyAccount(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = addressKey(address);
    this.setAccount(key, null);
    this.setCode(key, EMPTY);
    this.replaceStorage(key);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    if (fields.nonce !== undefined) account.nonce = fields.nonce;
    if (fields.balance !== undefined) account.balance = fields.balance;
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot;
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    this.setCode(addressKey(address), value);
    await this.modifyAccountFields(address, {codeHash: keccak256(value)});
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = addressKey(address);
    const own = this.accounts.get(key);
    if (own === null) return EMPTY;
    const code = this.code.get(key);
    if (code !== undefined) return code;
    // An account put in the overlay keeps its base code unless putCode replaced it.
    if (own !== undefined && equalBytes(own.codeHash, EMPTY_CODE_HASH)) return EMPTY;
    return this.base.getCode(address.bytes);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const overlay = this.storage.get(addressKey(address));
    const own = overlay?.slots.get(bytesToHex(key));
    if (own !== undefined) return own;
    if (overlay?.cleared) return EMPTY;
    return strip(await this.base.getStorage(address.bytes, key));
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const account = addressKey(address);
    let overlay = this.storage.get(account);
    if (overlay === undefined) {
      overlay = {cleared: false, slots: new Map()};
      this.journal.push({kind: "storage", key: account, previous: undefined});
      this.storage.set(account, overlay);
    }
    const slot = bytesToHex(key);
    this.journal.push({kind: "slot", overlay, slot, previous: overlay.slots.get(slot)});
    overlay.slots.set(slot, strip(value));
  }

  async clearStorage(address: Address): Promise<void> {
    this.replaceStorage(addressKey(address));
  }

  async checkpoint(): Promise<void> {
    this.checkpoints.push(this.journal.length);
  }

  async commit(): Promise<void> {
    this.checkpoints.pop();
  }

  async revert(): Promise<void> {
    const mark = this.checkpoints.pop() ?? 0;
    while (this.journal.length > mark) this.undo(this.journal.pop() as Undo);
  }

  async getStateRoot(): Promise<Uint8Array> {
    return this.unsupported("getStateRoot");
  }

  async setStateRoot(): Promise<void> {
    return this.unsupported("setStateRoot");
  }

  async hasStateRoot(): Promise<boolean> {
    return this.unsupported("hasStateRoot");
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return new OverlayStateManager(this.base);
  }

  private setAccount(key: string, account: Account | null): void {
    this.journal.push({kind: "account", key, previous: this.accounts.get(key)});
    this.accounts.set(key, account);
  }

  private setCode(key: string, code: Uint8Array): void {
    this.journal.push({kind: "code", key, previous: this.code.get(key)});
    this.code.set(key, code);
  }

  // Clearing puts a fresh overlay in place: the journal keeps the old one whole for a revert.
  private replaceStorage(key: string): void {
    this.journal.push({kind: "storage", key, previous: this.storage.get(key)});
    this.storage.set(key, {cleared: true, slots: new Map()});
  }

  private undo(entry: Undo): void {
    if (entry.kind === "slot") {
      if (entry.previous === undefined) entry.overlay.slots.delete(entry.slot);
      else entry.overlay.slots.set(entry.slot, entry.previous);
      return;
    }
    const map: Map<string, unknown> =
      entry.kind === "account" ? this.accounts : entry.kind === "code" ? this.code : this.storage;
    if (entry.previous === undefined) map.delete(entry.key);
    else map.set(entry.key, entry.previous);
  }

  private unsupported(operation: string): never {
    throw new StateError({code: StateErrorCode.READ_ONLY, operation}, `a call's state has no root: ${operation}`);
  }
}

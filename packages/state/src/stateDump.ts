/**
 * The state at one root listed by address and slot (a dev node's `anvil_dumpState`, docs/rpc.md
 * §4.10). The tries are keyed by keccak256(address) and keccak256(slot): a key is named by its
 * preimage, which a node records only where `StateOptions.recordPreimages` is on. A key without one
 * cannot be listed and is counted instead. Nodes are read from the store itself, past the node cache,
 * so that a dump does not push the working set of imports out of it.
 *
 * A forked state (docs/architecture.md, "The forked state") is dumped as its delta: the accounts the
 * node wrote, never the base's (anvil_dumpState on a fork lists what the fork fetched too): the marker
 * leaf is left out, account tombstones are listed as `deleted`, a written account lists the slots it
 * wrote (a zeroed base slot as zero), and the code of an account copied from the base is the base's.
 */
import {RLP} from "@ethereumjs/rlp";
import {Bucket, type KeyValueStore} from "@xchain/db";
import {bytesToBigInt, bytesToHex, compareBytes, concatBytes, equalBytes, keccak256} from "@xchain/utils";
import {StateError, StateErrorCode} from "./errors.ts";
import {ACCOUNT_TOMBSTONE, FORK_MARKER_KEY, WIPED_KEY} from "./fork/deltaEncoding.ts";
import type {StateBase} from "./fork/stateBase.ts";
import {type RlpItem, rlpItemAt, rlpItemsOf} from "./rlpItems.ts";
import {EMPTY_TRIE_ROOT} from "./trie.ts";

const CODE_PREFIX = Uint8Array.of(0x63);
const EMPTY_CODE_HASH = keccak256(new Uint8Array(0));

/**
 * The JSON a dumped account costs beyond its code and slots (the address, the field names, a nonce
 * and a balance), and what one slot costs (two 66-character words and punctuation): the dump's
 * size is estimated with these as it grows, so that a refusal comes before the memory is spent.
 */
const ACCOUNT_JSON_BYTES = 200;
const SLOT_JSON_BYTES = 140;

/** One account as the dump lists it. */
export interface DumpedAccount {
  address: Uint8Array;
  nonce: bigint;
  balance: bigint;
  /** Empty for an account without code. */
  code: Uint8Array;
  /** [slot, value] as 32-byte words, by slot; the slots without a recorded preimage are left out. */
  storage: [Uint8Array, Uint8Array][];
}

/** The listed state and what could not be named. */
export interface StateDump {
  /** By address. */
  accounts: DumpedAccount[];
  /** Accounts whose address has no recorded preimage (written before recording was on). */
  unnamedAccounts: number;
  /** Slots of listed accounts whose slot has no recorded preimage. */
  unnamedSlots: number;
  /** Set when the state is a fork's delta: `accounts` are the node's own writes over the base. */
  forked?: true;
  /** A fork's accounts deleted locally (tombstones), by address, as far as preimages name them. */
  deleted?: Uint8Array[];
}

/** How far a dump may grow: the estimated size of its JSON, in bytes. */
export interface StateDumpLimits {
  maxBytes: number;
}

/**
 * Every account of the state at `root` whose address has a recorded preimage, with its code and its
 * named slots. Throws DUMP_TOO_LARGE past `limits.maxBytes`, NODE_MISSING for a missing node. `base`,
 * for a forked state, serves the code its delta does not store.
 */
export async function dumpState(
  store: KeyValueStore,
  root: Uint8Array,
  limits: StateDumpLimits,
  base?: StateBase,
): Promise<StateDump> {
  const dump: StateDump = {accounts: [], unnamedAccounts: 0, unnamedSlots: 0};
  let bytes = 0;
  const grow = (more: number) => {
    bytes += more;
    if (bytes > limits.maxBytes) {
      throw new StateError(
        {code: StateErrorCode.DUMP_TOO_LARGE, maxBytes: limits.maxBytes},
        `the state dump passes its limit of ${limits.maxBytes} bytes of JSON after ${dump.accounts.length} accounts`,
      );
    }
  };
  let forked = false;
  const deleted: Uint8Array[] = [];
  for await (const [hashedAddress, value] of trieLeaves(store, root)) {
    if (equalBytes(hashedAddress, FORK_MARKER_KEY)) {
      forked = true;
      continue;
    }
    const address = await store.get(Bucket.preimage, hashedAddress);
    if (address === undefined || address.length !== 20) {
      dump.unnamedAccounts++;
      continue;
    }
    if (equalBytes(value, ACCOUNT_TOMBSTONE)) {
      grow(ACCOUNT_JSON_BYTES);
      deleted.push(address);
      continue;
    }
    const [nonce, balance, storageRoot, codeHash] = RLP.decode(value) as Uint8Array[];
    const code = await accountCode(store, address, codeHash as Uint8Array, base);
    grow(ACCOUNT_JSON_BYTES + 2 * code.length);
    const storage: [Uint8Array, Uint8Array][] = [];
    for await (const [hashedSlot, encoded] of trieLeaves(store, storageRoot as Uint8Array)) {
      // A fork's "storage wiped" marker is not a slot (the slots it hides read zero).
      if (equalBytes(hashedSlot, WIPED_KEY)) continue;
      const slot = await store.get(Bucket.preimage, hashedSlot);
      if (slot === undefined || slot.length !== 32) {
        dump.unnamedSlots++;
        continue;
      }
      grow(SLOT_JSON_BYTES);
      storage.push([slot, word(RLP.decode(encoded) as Uint8Array)]);
    }
    storage.sort(([a], [b]) => compareBytes(a, b));
    dump.accounts.push({
      address,
      nonce: bytesToBigInt(nonce as Uint8Array),
      balance: bytesToBigInt(balance as Uint8Array),
      code,
      storage,
    });
  }
  dump.accounts.sort((a, b) => compareBytes(a.address, b.address));
  // Tombstones are in forked states only (whose marker may come after them in key order).
  if (forked) Object.assign(dump, {forked: true, deleted: deleted.sort(compareBytes)});
  return dump;
}

/** The code under `codeHash` (empty for the empty code's hash), stored or, for a forked state, the base's. */
async function accountCode(
  store: KeyValueStore,
  address: Uint8Array,
  codeHash: Uint8Array,
  base: StateBase | undefined,
): Promise<Uint8Array> {
  if (equalBytes(codeHash, EMPTY_CODE_HASH)) return new Uint8Array(0);
  const stored = await store.get(Bucket.stateTrie, concatBytes(CODE_PREFIX, codeHash));
  if (stored !== undefined) return stored;
  return base === undefined ? missing(codeHash, "63") : base.code(address, codeHash);
}

/** A pending piece of the walk: a node (the item `item` of `bytes`) and the key nibbles above it. */
interface Step {
  bytes: Uint8Array;
  item: RlpItem;
  path: number[];
}

/** The [key, value] leaves of the trie at `root`, by key, read from the store. */
export async function* trieLeaves(store: KeyValueStore, root: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
  if (equalBytes(root, EMPTY_TRIE_ROOT)) return;
  const stack: Step[] = [await storedStep(store, root, [])];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const {bytes, path} = step;
    const items = rlpItemsOf(bytes, step.item);
    if (items.length === 17) {
      // Pushed in reverse, so that the lowest nibble comes off the stack first.
      for (let nibble = 15; nibble >= 0; nibble--) {
        const child = await childStep(store, bytes, items[nibble] as RlpItem, [...path, nibble]);
        if (child) stack.push(child);
      }
      continue;
    }
    const [encodedPath, value] = items as [RlpItem, RlpItem];
    const {nibbles, leaf} = hexPrefix(bytes.subarray(encodedPath.start, encodedPath.end));
    if (leaf) {
      yield [nibblesToBytes([...path, ...nibbles]), bytes.slice(value.start, value.end)];
    } else {
      const child = await childStep(store, bytes, value, [...path, ...nibbles]);
      if (child) stack.push(child);
    }
  }
}

/** A child reference: embedded (a list), by its 32-byte hash (read from the store), or empty. */
async function childStep(
  store: KeyValueStore,
  bytes: Uint8Array,
  item: RlpItem,
  path: number[],
): Promise<Step | undefined> {
  if (item.list) return {bytes, item, path};
  if (item.end - item.start !== 32) return undefined;
  return storedStep(store, bytes.slice(item.start, item.end), path);
}

async function storedStep(store: KeyValueStore, hash: Uint8Array, path: number[]): Promise<Step> {
  const bytes = (await store.get(Bucket.stateTrie, hash)) ?? missing(hash, "");
  return {bytes, item: rlpItemAt(bytes, 0), path};
}

function missing(hash: Uint8Array, prefix: string): never {
  const key = prefix + bytesToHex(hash);
  throw new StateError({code: StateErrorCode.NODE_MISSING, key}, `state entry ${key} is missing`);
}

/** The nibbles of a hex-prefix encoded path, and whether it ends in a leaf (flag nibble 2 or 3). */
function hexPrefix(encoded: Uint8Array): {nibbles: number[]; leaf: boolean} {
  const flag = (encoded[0] as number) >> 4;
  const nibbles: number[] = flag % 2 === 1 ? [(encoded[0] as number) & 0x0f] : [];
  for (let i = 1; i < encoded.length; i++) nibbles.push((encoded[i] as number) >> 4, (encoded[i] as number) & 0x0f);
  return {nibbles, leaf: flag >= 2};
}

function nibblesToBytes(nibbles: number[]): Uint8Array {
  const out = new Uint8Array(nibbles.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = ((nibbles[2 * i] as number) << 4) | (nibbles[2 * i + 1] as number);
  return out;
}

/** A stored slot value (unpadded) as a 32-byte word. */
function word(value: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(value, 32 - value.length);
  return out;
}

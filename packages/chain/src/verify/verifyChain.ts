/**
 * `xchain db verify`'s walk (docs/operations.md §6): the canonical chain from genesis to the head,
 * each block against what references it (the canonical index, its parent, its header's roots), then
 * the whole state at the head (the dev-edited state when a dev control edited it). It reads through the store only (no caches) and stops at the first
 * damage, which it names with the block it belongs to.
 */
import type {Chainspec} from "@xchain/chainspec";
import {totalDifficulty} from "@xchain/consensus";
import {Bucket, DatabaseError, DatabaseErrorCode, type KeyValueStore, numberKey} from "@xchain/db";
import {receiptsRoot, transactionsRoot} from "@xchain/execution";
import {type Block, type BlockHeader, decodeRlp, encodeRlp} from "@xchain/primitives";
import {type StateVerification, verifyState} from "@xchain/state";
import {bytesToPrefixedHex, equalBytes, keccak256} from "@xchain/utils";
import {defaultChainOptions} from "../options.ts";
import {ChainStore} from "../store/chainStore.ts";
import {StateOverrides} from "../store/stateOverrides.ts";

/** The first damage found: the block it belongs to and what is wrong. */
export interface ChainDamage {
  number: number;
  /** The block's hash as the canonical index gives it, when it does. */
  hash?: string;
  problem: string;
  /** Set when LevelDB itself could not read the block's data. */
  unreadable?: boolean;
}

export interface ChainVerification {
  /** The head the meta record names, when it names a stored header. */
  head?: {number: number; hash: string};
  /** The highest block such that it and every block below it are whole (-1: not even the genesis). */
  wholeThrough: number;
  damage?: ChainDamage;
  /** The walk of the head's state, when the chain up to the head is whole. */
  state?: StateVerification & {block: number};
  /** Whether LevelDB itself failed a read (a block checksum): only its repair makes the rest readable again. */
  unreadable: boolean;
}

export interface ChainVerifyModules {
  chainspec: Chainspec;
  /** Told of each block checked (for progress lines). */
  onBlock?: (blockNumber: number) => void;
  signal?: AbortSignal;
}

/** Walks the chain and the head state of `kv` (see the file comment). */
export async function verifyChain(kv: KeyValueStore, modules: ChainVerifyModules): Promise<ChainVerification> {
  const {chainspec, onBlock, signal} = modules;
  const store = new ChainStore(
    kv,
    {rules: chainspec, chainId: chainspec.params.chainId},
    {...defaultChainOptions, headerCacheSize: 1},
  );
  let headHash: Uint8Array | undefined;
  let headHeader: BlockHeader | undefined;
  try {
    headHash = await store.meta.getHead();
    headHeader = headHash && (await store.blocks.getHeader(headHash));
  } catch (e) {
    if (!isCorruption(e)) throw e;
    const problem = `LevelDB reports damage while reading the head: ${e.type.reason}`;
    return {wholeThrough: -1, damage: {number: 0, problem, unreadable: true}, unreadable: true};
  }
  if (!headHash || !headHeader) {
    const problem = headHash ? `the head ${bytesToPrefixedHex(headHash)} has no stored header` : "no head is recorded";
    return {wholeThrough: -1, damage: {number: 0, problem}, unreadable: false};
  }
  const head = {number: headHeader.number, hash: bytesToPrefixedHex(headHash)};
  let parent: {hash: Uint8Array; totalDifficulty: bigint} | undefined;
  for (let n = 0; n <= head.number; n++) {
    signal?.throwIfAborted();
    const checked = await damageAsResult(n, () => checkBlock(store, n, parent));
    if ("problem" in checked)
      return {head, wholeThrough: n - 1, damage: checked, unreadable: checked.unreadable === true};
    parent = checked;
    onBlock?.(n);
  }
  if (parent === undefined || !equalBytes(parent.hash, headHash)) {
    return {
      head,
      wholeThrough: head.number,
      damage: {number: head.number, problem: "the head is not the canonical block of its height"},
      unreadable: false,
    };
  }
  const state = await verifyStateDamage(kv, await effectiveRoot(kv, headHeader), signal);
  const unreadable = state.damage?.problem === "unreadable";
  return {head, wholeThrough: head.number, state: {...state, block: head.number}, unreadable};
}

/** Whether the state of the canonical block `blockNumber` is whole (a full walk of it). */
export async function verifyStateAt(
  kv: KeyValueStore,
  chainspec: Chainspec,
  blockNumber: number,
  signal?: AbortSignal,
): Promise<StateVerification> {
  const store = new ChainStore(
    kv,
    {rules: chainspec, chainId: chainspec.params.chainId},
    {...defaultChainOptions, headerCacheSize: 1},
  );
  const hash = await store.canonical.hashAt(blockNumber);
  const header = hash && (await store.blocks.getHeader(hash));
  if (!hash || !header) return {nodes: 0, accounts: 0, codes: 0, bytes: 0, damage: {key: "", problem: "missing"}};
  return verifyStateDamage(kv, await effectiveRoot(kv, header), signal);
}

/** The state root the node reads after `header`: a dev-edited state's when the block has one. */
async function effectiveRoot(kv: KeyValueStore, header: BlockHeader): Promise<Uint8Array> {
  const overrides = new StateOverrides(kv);
  await overrides.load();
  return overrides.rootAfter(header);
}

/** `verifyState`, with damage LevelDB itself detects reported as damage of the state. */
async function verifyStateDamage(
  kv: KeyValueStore,
  root: Uint8Array,
  signal?: AbortSignal,
): Promise<StateVerification> {
  try {
    return await verifyState(kv, root, signal);
  } catch (e) {
    if (!isCorruption(e)) throw e;
    return {nodes: 0, accounts: 0, codes: 0, bytes: 0, damage: {key: "", problem: "unreadable", reason: e.type.reason}};
  }
}

/** `check`'s answer, or the damage LevelDB itself detected while reading the block. */
async function damageAsResult<T>(n: number, check: () => Promise<T | ChainDamage>): Promise<T | ChainDamage> {
  try {
    return await check();
  } catch (e) {
    if (!isCorruption(e)) throw e;
    return {number: n, problem: `LevelDB reports damage while reading it: ${e.type.reason}`, unreadable: true};
  }
}

function isCorruption(e: unknown): e is DatabaseError & {type: {code: DatabaseErrorCode.CORRUPTED; reason: string}} {
  return e instanceof DatabaseError && e.code === DatabaseErrorCode.CORRUPTED;
}

/** The canonical block `n` checked against its parent and its own roots: its hash and total difficulty, or the damage. */
async function checkBlock(
  store: ChainStore,
  n: number,
  parent: {hash: Uint8Array; totalDifficulty: bigint} | undefined,
): Promise<{hash: Uint8Array; totalDifficulty: bigint} | ChainDamage> {
  const hash = await store.canonical.hashAt(n);
  if (!hash) return {number: n, problem: "the canonical index has no block at this height"};
  const at = {number: n, hash: bytesToPrefixedHex(hash)};
  let block: Block | undefined;
  try {
    const header = await store.blocks.getHeader(hash);
    if (!header) return {...at, problem: "its header is missing"};
    if (!equalBytes(header.hash(), hash)) return {...at, problem: "its header does not hash to its key"};
    if (header.number !== n) return {...at, problem: `its header says block ${header.number}`};
    if (parent && !equalBytes(header.parentHash, parent.hash))
      return {...at, problem: "its parent is not the canonical block below"};
    block = await store.blocks.getBlock(hash);
  } catch (e) {
    if (e instanceof DatabaseError) throw e;
    return {...at, problem: `it does not decode: ${(e as Error).message}`};
  }
  if (!block) return {...at, problem: "its body is missing"};
  const {header} = block;
  if (!equalBytes(await transactionsRoot(block.transactions), header.txTrieRoot)) {
    return {...at, problem: "its transactions do not match the header's txTrieRoot"};
  }
  const unclesHash = keccak256(encodeRlp(block.uncles.map((uncle) => decodeRlp(uncle.encode()))));
  if (!equalBytes(unclesHash, header.unclesHash))
    return {...at, problem: "its uncles do not match the header's unclesHash"};
  let receipts: Awaited<ReturnType<typeof store.receipts.get>>;
  try {
    receipts = await store.receipts.get(hash);
  } catch (e) {
    if (e instanceof DatabaseError) throw e;
    return {...at, problem: `its receipts do not decode: ${(e as Error).message}`};
  }
  if (!receipts) return {...at, problem: "its receipts are missing"};
  if (!equalBytes(receiptsRoot(receipts), header.receiptTrieRoot)) {
    return {...at, problem: "its receipts do not match the header's receiptTrieRoot"};
  }
  const stored = await store.totalDifficulty.get(hash);
  const expected = parent ? totalDifficulty(parent.totalDifficulty, header, block.uncles) : header.difficulty;
  if (stored !== expected) return {...at, problem: `its total difficulty is ${stored ?? "missing"}, not ${expected}`};
  const bloom = await store.kv.get(Bucket.canonicalBloom, numberKey(n));
  if (!bloom || !equalBytes(bloom, header.logsBloom))
    return {...at, problem: "its logs bloom index is missing or wrong"};
  for (const [index, tx] of block.transactions.entries()) {
    const location = await store.canonical.transactionLocation(tx.hash());
    if (!location || !equalBytes(location.blockHash, hash) || location.index !== index) {
      return {...at, problem: `the index of its transaction ${bytesToPrefixedHex(tx.hash())} is missing or wrong`};
    }
  }
  return {hash, totalDifficulty: expected};
}

/**
 * One block import: decode, EXIST, NO_PARENT, validate, execute on the parent's
 * state, compare with the header, then one `WriteBatch` with the state writes, the block, its
 * receipts, its total difficulty and, when it becomes the head, the canonical switch. A block that
 * fails any rule returns INVALID_BLOCK before anything is written; one that passes the rules needing
 * no state but whose parent's state was pruned returns PARENT_STATE_PRUNED, and nothing is written.
 */
import type {Chainspec} from "@xchain/chainspec";
import {HeaderError, isBetterHead, totalDifficulty} from "@xchain/consensus";
import {type BatchOp, WriteBatch} from "@xchain/db";
import {BlockExecutionError, type BlockExecutionResult, type TransactionOutcome} from "@xchain/execution";
import {MergedMiningError} from "@xchain/merged-mining";
import {Block, BlockDecodeError, type BlockHeader} from "@xchain/primitives";
import {StateError, StateErrorCode} from "@xchain/state";
import {bytesToPrefixedHex, equalBytes, type NodeError} from "@xchain/utils";
import {BlockError, ChainError, ChainErrorCode} from "../errors.ts";
import type {ChainStore} from "../store/chainStore.ts";
import {type ChainFork, type ChainHead, type ImportResult, ImportResultKind, type LocalExecution} from "../types.ts";
import {AncestorView} from "./ancestors.ts";
import {type BlockExecutorApi, executeOnParent} from "./executeOnParent.ts";
import {findHeadChange, type HeadChange, writeHeadChange} from "./headChange.ts";
import {executionResultRule} from "./rules/executionResultRule.ts";
import {validateBlock} from "./validateBlock.ts";

/** The dependencies of `BlockImporter`. */
export interface BlockImporterDeps {
  store: ChainStore;
  chainspec: Chainspec;
  executor: BlockExecutorApi;
  /** The local clock, in seconds, for the future-timestamp rule. */
  nowSeconds: () => number;
  /** The state root a block's children execute on (`StateOverrides.rootAfter`). */
  stateRootAfter(header: BlockHeader): Uint8Array;
  /** Told the state writes of a block stored with the node's own execution (`StateDatabase.rememberWrites`). */
  rememberWrites?: (writes: BatchOp[]) => void;
  /** On a forked chain, the fork it extends now (`Chain.fork`). */
  fork?: () => ChainFork | undefined;
  /**
   * Adds to the batch that makes `to` the head (after `from`) the flat state's move between their
   * states (`flatHeadMove`); returns what to run once the batch is written.
   */
  headStateMove?(batch: WriteBatch, from: BlockHeader, to: BlockHeader): Promise<() => void>;
}

/** The result of an import, and when the block became the head, the switch that was written. */
export interface ImportOutcome {
  result: ImportResult;
  /** Set when the block became the head: the canonical change and what its transactions did. */
  newHead?: {head: ChainHead; change: HeadChange; outcomes: readonly TransactionOutcome[]};
}

// The errors that mean "this block is invalid"; anything else is a fault of the node and propagates.
const RULE_ERRORS = [BlockDecodeError, HeaderError, MergedMiningError, BlockError, BlockExecutionError];

/** Imports blocks into the store; the caller serializes calls and owns the head. */
export class BlockImporter {
  constructor(private readonly deps: BlockImporterDeps) {}

  /**
   * Imports `input` given the current head; writes nothing unless the block is valid and new.
   * `local`: this node's own execution of the block, taken when it ran exactly this block (executeOnParent).
   */
  async import(input: Block | Uint8Array, head: ChainHead, local?: LocalExecution): Promise<ImportOutcome> {
    const {store, chainspec} = this.deps;
    let block: Block;
    try {
      block =
        input instanceof Block ? input : Block.decode(input, {rules: chainspec, chainId: chainspec.params.chainId});
    } catch (e) {
      return {result: invalid(e)};
    }
    const {header} = block;
    const hash = block.hash();
    const number = header.number;
    if (await store.blocks.has(hash)) return {result: {kind: ImportResultKind.EXIST, hash, number}};
    const parent = await store.blocks.getHeader(header.parentHash);
    // An orphan is not kept: sync fetches the missing ancestors and imports the block again.
    if (!parent) {
      return {result: {kind: ImportResultKind.NO_PARENT, hash, number, parentHash: header.parentHash}};
    }

    let result: BlockExecutionResult;
    try {
      const ancestors = new AncestorView(store, parent, head.hash, this.deps.fork?.()?.anchor.header.hash());
      await validateBlock(block, ancestors, chainspec, this.deps.nowSeconds());
      result = await executeOnParent(this.deps, block, ancestors, local);
      executionResultRule(header, result);
    } catch (e) {
      if (isStatePruned(e)) return {result: {kind: ImportResultKind.PARENT_STATE_PRUNED, hash, number, error: e}};
      return {result: invalid(e, hash, number)};
    }

    const outcome = await this.write(block, result, parent, head);
    // The chain's state has not seen this state being computed: its node cache learns it here.
    if (local && result === local.result) this.deps.rememberWrites?.(result.stateWrites);
    return outcome;
  }

  /** One batch: state writes, block, receipts, total difficulty and, when the block is the new head, the switch. */
  private async write(
    block: Block,
    result: BlockExecutionResult,
    parent: BlockHeader,
    head: ChainHead,
  ): Promise<ImportOutcome> {
    const {store} = this.deps;
    const {header} = block;
    const hash = block.hash();
    const number = header.number;
    // A block extending the head (the usual case) finds its parent's total difficulty at hand.
    const parentTotalDifficulty = equalBytes(parent.hash(), head.hash)
      ? head.totalDifficulty
      : await store.totalDifficulty.get(parent.hash());
    if (parentTotalDifficulty === undefined) throw missingTotalDifficulty(parent.hash());
    const candidate: ChainHead = {
      header,
      hash,
      number,
      totalDifficulty: totalDifficulty(parentTotalDifficulty, header, block.uncles),
    };
    const batch = new WriteBatch().append(result.stateWrites);
    store.blocks.put(batch, block);
    store.receipts.put(batch, hash, result.receipts);
    store.totalDifficulty.put(batch, hash, candidate.totalDifficulty);
    let change: HeadChange | undefined;
    let written: (() => void) | undefined;
    if (isBetterHead(candidate, head)) {
      change = await findHeadChange(store, {block, receipts: result.receipts}, head.header);
      writeHeadChange(batch, store, change, head.number, header);
      written = await this.deps.headStateMove?.(batch, head.header, header);
    }
    await store.kv.write(batch);
    written?.();
    store.blocks.remember(header);
    if (!change) return {result: {kind: ImportResultKind.IMPORTED_NOT_BEST, hash, number}};
    return {
      result: {kind: ImportResultKind.IMPORTED_BEST, hash, number},
      newHead: {head: candidate, change, outcomes: result.outcomes},
    };
  }
}

/** INVALID_BLOCK for a rule error (with the block's hash and number once decoded); rethrows anything else. */
function invalid(error: unknown, hash?: Uint8Array, number?: number): ImportResult {
  if (!isRuleError(error)) throw error;
  const kind = ImportResultKind.INVALID_BLOCK;
  return hash === undefined ? {kind, error} : {kind, hash, number: number as number, error};
}

/** The parent's state was pruned (`StateRetention.requireServed`): the block's validity is not known. */
function isStatePruned(error: unknown): error is StateError {
  return error instanceof StateError && error.type.code === StateErrorCode.PRUNED;
}

function isRuleError(error: unknown): error is NodeError<{code: string}> {
  return RULE_ERRORS.some((errorClass) => error instanceof errorClass);
}

function missingTotalDifficulty(hash: Uint8Array): ChainError {
  const hex = bytesToPrefixedHex(hash);
  return new ChainError(
    {code: ChainErrorCode.MISSING_DATA, hash: hex, missing: "totalDifficulty"},
    `block ${hex}: total difficulty not stored`,
  );
}

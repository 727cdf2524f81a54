/**
 * A block template: the next block on the head, complete but for its merged-mining
 * fields. Transactions come from the pool in its order (by gas price, nonce order per sender) and
 * go through block assembly, which skips the invalid ones and appends the REMASC transaction.
 */
import type {ChainHead, LocalExecution} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {
  type AssembledBlock,
  assembledHeaderValues,
  blockContextOf,
  NativeContractUnavailableError,
  TransactionInvalidError,
} from "@xchain/execution";
import {powTarget, unsealedHashForMergedMining} from "@xchain/merged-mining";
import {BlockHeader, type Transaction} from "@xchain/primitives";
import {type Logger, type RepeatedErrorLog, toData} from "@xchain/utils";
import type {MinerClock} from "../clock.ts";
import type {BlockAssembler, MinerChain, MinerTxPool} from "../deps.ts";
import type {MinerOptions} from "../options.ts";
import {forkDetectionAncestors, templateChainView} from "./chainReads.ts";
import {nextGasLimit} from "./gasLimit.ts";
import {nextMinimumGasPrice} from "./minimumGasPrice.ts";
import type {UncleFinder} from "./uncles.ts";

/** A block waiting for its proof of work. */
export interface BlockTemplate {
  /** The header without merged-mining fields. */
  header: BlockHeader;
  /** The included transactions, the REMASC transaction last. */
  transactions: Transaction[];
  uncles: BlockHeader[];
  /**
   * What the Bitcoin coinbase commits to after `RSKBLOCK:` (fork-detection data included,
   * docs/protocol/header.md §5).
   */
  hashForMergedMining: Uint8Array;
  /** floor(2^256 / max(difficulty, 3)). */
  target: bigint;
  /** Its execution, which the import of the sealed block takes instead of running it again (`Chain.importBlock`). */
  execution: LocalExecution;
  /** The pool's transactions assembly left out, with why (they stay pending). */
  skipped: AssembledBlock["skipped"];
}

/** What building a template reads. */
export interface TemplateSources {
  chain: MinerChain;
  txpool: Pick<MinerTxPool, "pendingForBlock">;
  assembler: BlockAssembler;
  chainspec: Chainspec;
  clock: MinerClock;
  uncles: UncleFinder;
  options: Pick<MinerOptions, "coinbase" | "minGasPriceInWei" | "targetGasLimit" | "forceTargetGasLimit">;
}

/** The next block on the head as assembled, before its merged-mining fields. */
export interface AssembledNextBlock {
  header: BlockHeader;
  /** The included transactions, the REMASC transaction last. */
  transactions: Transaction[];
  uncles: BlockHeader[];
  /** The execution result: receipts and the state writes, not persisted. */
  result: AssembledBlock["result"];
  /** The execution as the import of this block may take it. */
  execution: LocalExecution;
  /** The pool's transactions assembly left out, with why. */
  skipped: AssembledBlock["skipped"];
}

/**
 * Assembles the block after `head`: the miner's timestamp, difficulty, gas limit and minimum gas
 * price, the uncles, and the pool's transactions that execute.
 */
export async function assembleNextBlock(sources: TemplateSources, head: ChainHead): Promise<AssembledNextBlock> {
  const {chain, chainspec, options} = sources;
  const parent = head.header;
  const number = head.number + 1;
  // docs/protocol/mining-rpc.md §6: max(now + shift, parent + 1), or what the time controls set (docs/rpc.md §4.10).
  const timestamp = sources.clock.timestampAfter(parent.timestamp);
  const uncles = await sources.uncles.candidates(parent);
  const block = {
    number,
    timestamp,
    coinbase: options.coinbase,
    difficulty: calculateDifficulty({number, timestamp, uncleCount: uncles.length}, parent, chainspec),
    gasLimit: nextGasLimit({
      parentGasLimit: parent.gasLimit,
      parentGasUsed: parent.gasUsed,
      minGasLimit: chainspec.params.minGasLimit,
      boundDivisor: chainspec.params.gasLimitBoundDivisor,
      targetGasLimit: options.targetGasLimit,
      forceTarget: options.forceTargetGasLimit,
    }),
    minimumGasPrice: nextMinimumGasPrice(parent.minimumGasPrice, options.minGasPriceInWei),
  };
  // The head's effective state: a dev control's edit of it enters this block (docs/architecture.md).
  const parentStateRoot = chain.stateRootAfter(parent);
  const {transactions, result, skipped} = await sources.assembler.assembleBlock({
    block,
    candidates: sources.txpool.pendingForBlock(),
    parentStateRoot,
    chain: await templateChainView(chain, number, chainspec.params.remascMaturity),
  });
  const header = BlockHeader.fromValues(
    assembledHeaderValues(block, result, {parentHash: head.hash, uncles, extraData: new Uint8Array(0)}, chainspec),
    chainspec,
  );
  const execution = {parentHash: head.hash, parentStateRoot, block: blockContextOf(header), transactions, result};
  return {header, transactions, uncles, result, execution, skipped};
}

/** Builds the template of the block after `head`. */
export async function buildTemplate(sources: TemplateSources, head: ChainHead): Promise<BlockTemplate> {
  const {chain, chainspec} = sources;
  const {header, transactions, uncles, execution, skipped} = await assembleNextBlock(sources, head);
  const number = header.number;
  const forkDetectionActive = chainspec.isActive("RSKIP110", number);
  const ancestors = forkDetectionActive ? await forkDetectionAncestors(chain, number) : () => undefined;
  const hashForMergedMining = unsealedHashForMergedMining(header, ancestors, forkDetectionActive);
  const target = powTarget(header.difficulty);
  return {header, transactions, uncles, hashForMergedMining, target, execution, skipped};
}

/** Where `settleLeftOut` reports and drops. */
export interface LeftOutSinks {
  /** Says once a minute per error code that a transaction was left out. */
  log: RepeatedErrorLog;
  txpool: Pick<MinerTxPool, "drop">;
  logger: Logger;
}

/**
 * Deals with each transaction assembly left out for a reason other than being invalid (fork mode). One
 * that needed a value the upstream could not give (docs/forking.md §4.3) stays pending and is tried again
 * in the next template. One that reached a native contract never can be executed on this fork (§6): it
 * is dropped from the pool, with a warning naming the transaction and the contract, so that it does not
 * wait forever.
 */
export function settleLeftOut(template: BlockTemplate, sinks: LeftOutSinks): BlockTemplate {
  for (const {transaction, error} of template.skipped) {
    if (error instanceof TransactionInvalidError) continue;
    if (!(error instanceof NativeContractUnavailableError)) {
      sinks.log.report(error);
      continue;
    }
    const hash = transaction.hash();
    sinks.txpool.drop(hash).then(
      (dropped) => {
        if (dropped)
          sinks.logger.warn({tx: toData(hash), err: error}, `dropped transaction ${toData(hash)}: ${error.message}`);
      },
      (err) => sinks.logger.error({err, tx: toData(hash)}, "dropping a transaction the fork cannot execute failed"),
    );
  }
  return template;
}

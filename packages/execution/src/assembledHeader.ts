import type {Chainspec} from "@xchain/chainspec";
import {type BlockHeader, type HeaderValues, unclesHash} from "@xchain/primitives";
import type {BlockExecutionResult, ExecutionBlockContext} from "./types.ts";

/** What a block's header holds besides its execution context and its assembly's result. */
export interface AssembledHeaderParts {
  parentHash: Uint8Array;
  uncles: readonly BlockHeader[];
  extraData: Uint8Array;
}

/**
 * The header values of a block assembled on `block` (the miner's template, the test chain
 * builder's blocks): the context's fields, the commitments of `result`, the uncles' hash and
 * count, and an empty ummRoot where the height requires the field (RSKIP-UMM). The merged-mining
 * fields are left out: sealing adds them.
 */
export function assembledHeaderValues(
  block: ExecutionBlockContext,
  result: BlockExecutionResult,
  parts: AssembledHeaderParts,
  chainspec: Chainspec,
): HeaderValues {
  return {
    parentHash: parts.parentHash,
    unclesHash: unclesHash(parts.uncles),
    coinbase: block.coinbase,
    stateRoot: result.stateRoot,
    txTrieRoot: result.transactionsRoot,
    receiptTrieRoot: result.receiptsRoot,
    logsBloom: result.logsBloom,
    difficulty: block.difficulty,
    number: block.number,
    gasLimit: block.gasLimit,
    gasUsed: result.gasUsed,
    timestamp: block.timestamp,
    extraData: parts.extraData,
    paidFees: result.paidFees,
    minimumGasPrice: block.minimumGasPrice,
    uncleCount: parts.uncles.length,
    ummRoot: chainspec.hasUmmRoot(block.number) ? new Uint8Array(0) : undefined,
  };
}

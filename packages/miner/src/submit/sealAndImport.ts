/**
 * A solved template becomes a block: sealed with its merged-mining fields and imported through full
 * validation, which takes the template's own execution instead of running the block again.
 */

import {ImportResultKind} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import {Block, type MergedMiningFields} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import type {MinerChain} from "../deps.ts";
import {MinerError} from "../errors.ts";
import type {BlockTemplate} from "../template/blockTemplate.ts";
import {MinerErrorCode, type SubmitBlockResult} from "../types.ts";

/**
 * Seals `template` with `fields` and imports it. A block the chain rejects (proof of work above
 * the target, a stale fork-detection data…) throws `MinerError(INVALID_BLOCK)` whose `reason` is
 * the rule's code; the other import results (EXIST, NO_PARENT) are returned as they are.
 */
export async function sealAndImport(
  chain: Pick<MinerChain, "importBlock">,
  chainspec: Chainspec,
  template: BlockTemplate,
  fields: MergedMiningFields,
): Promise<SubmitBlockResult> {
  const block = new Block(template.header.withMergedMining(fields, chainspec), template.transactions, template.uncles);
  const result = await chain.importBlock(block, template.execution);
  // PARENT_STATE_PRUNED: a template on a head the chain has since left further behind than the states it keeps.
  if (result.kind === ImportResultKind.INVALID_BLOCK || result.kind === ImportResultKind.PARENT_STATE_PRUNED) {
    throw new MinerError({
      code: MinerErrorCode.INVALID_BLOCK,
      reason: result.error.type.code,
      detail: result.error.message,
      blockHash: bytesToHex(block.hash()),
    });
  }
  return {importResult: result.kind, blockHash: result.hash, blockIncludedHeight: result.number};
}

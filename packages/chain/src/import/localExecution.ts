/**
 * Whether a block's own execution, computed by this node before the block was sealed (its miner's
 * assembly), is the result import would compute: the same parent (so the same BLOCKHASH answers and
 * REMASC matured block), the same parent state, the same block context and the same transactions in
 * the same order. Execution is deterministic in these, so a match makes running the block again
 * pointless; a block mined from a template pays its execution once (docs/performance.md §21).
 */
import {blockContextOf} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import type {LocalExecution} from "../types.ts";

/** True when `local` ran exactly `block` on `parentStateRoot`. */
export function executedAlike(local: LocalExecution, block: Block, parentStateRoot: Uint8Array): boolean {
  const {header, transactions} = block;
  if (!equalBytes(local.parentHash, header.parentHash) || !equalBytes(local.parentStateRoot, parentStateRoot)) {
    return false;
  }
  const context = blockContextOf(header);
  const ran = local.block;
  if (
    ran.number !== context.number ||
    ran.timestamp !== context.timestamp ||
    ran.difficulty !== context.difficulty ||
    ran.gasLimit !== context.gasLimit ||
    ran.minimumGasPrice !== context.minimumGasPrice ||
    !equalBytes(ran.coinbase, context.coinbase)
  ) {
    return false;
  }
  if (local.transactions.length !== transactions.length) return false;
  return transactions.every((tx, i) => equalBytes(tx.hash(), (local.transactions[i] as typeof tx).hash()));
}

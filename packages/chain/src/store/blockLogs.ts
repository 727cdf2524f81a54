/** A block's logs with the context RPC shows (docs/rpc.md §2.6). */
import type {Block, Receipt} from "@xchain/primitives";
import type {LogWithContext} from "../types.ts";

/** Every log of `block` in order, numbered across the block; `removed` marks logs leaving the canonical chain. */
export function blockLogs(block: Block, receipts: readonly Receipt[], removed: boolean): LogWithContext[] {
  const blockHash = block.hash();
  const logs: LogWithContext[] = [];
  receipts.forEach((receipt, transactionIndex) => {
    const tx = block.transactions[transactionIndex];
    if (!tx) return;
    for (const log of receipt.logs) {
      logs.push({
        log,
        blockHash,
        blockNumber: block.header.number,
        transactionHash: tx.hash(),
        transactionIndex,
        logIndex: logs.length,
        removed,
      });
    }
  });
  return logs;
}

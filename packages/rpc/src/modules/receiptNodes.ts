/** xchain_getTransactionReceiptNodesByHash (docs/protocol/proofs.md §2): a receipt's path in its block's receipts trie. */
import type {ChainReader} from "@xchain/chain";
import {receiptProof} from "@xchain/execution";
import {equalBytes, toData} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import {hash} from "../params/hex.ts";
import {method, param} from "../params/method.ts";

/**
 * Handler for `xchain_getTransactionReceiptNodesByHash`: the receipts-trie nodes, root first (rskj
 * lists them leaf first), from the block's `receiptsRoot` to the transaction's receipt; null when
 * the block is unknown or does not hold the transaction. The block need not be canonical.
 */
export function receiptNodesMethod(chain: Pick<ChainReader, "getBlock" | "getReceipts">): RpcMethod {
  return method([param("blockHash", hash), param("transactionHash", hash)], async (blockHash, txHash) => {
    const block = await chain.getBlock(blockHash);
    const index = block?.transactions.findIndex((tx) => equalBytes(tx.hash(), txHash)) ?? -1;
    if (index < 0) return null;
    const receipts = await chain.getReceipts(blockHash);
    if (receipts === undefined || receipts.length !== block?.transactions.length) return null;
    return receiptProof(receipts, index).map(toData);
  });
}

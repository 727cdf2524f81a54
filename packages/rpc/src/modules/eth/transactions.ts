/**
 * eth_* transaction and receipt queries (docs/rpc.md §4.3). A transaction still in the txpool is shown
 * with null block fields; eth_pendingTransactions shows the zero block hash (docs/rpc.md §2.4).
 */
import type {Block, Transaction} from "@xchain/primitives";
import {formatReceipt} from "../../format/receipt.ts";
import {formatTransaction, ZERO_HASH} from "../../format/transaction.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {blockNumberOrTag} from "../../params/blockRef.ts";
import {hash, quantityNumber} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {findBlock, isPendingRef} from "../../resolve/blocks.ts";

/** eth_getTransactionBy*, eth_getTransactionReceipt, eth_pendingTransactions. */
export function ethTransactionMethods({
  chain,
  txpool,
  pendingBlock,
  options,
}: Pick<ModuleDeps, "chain" | "txpool" | "pendingBlock" | "options">): Record<string, RpcMethod> {
  /** The canonical block holding a transaction, and its index there. */
  const locate = async (txHash: Uint8Array): Promise<{block: Block; index: number} | undefined> => {
    const location = await chain.getTransactionLocation(txHash);
    const block = location && (await chain.getBlock(location.blockHash));
    return location && block && {block, index: location.index};
  };
  const inBlock = (block: Block | undefined, index: number) => {
    const tx: Transaction | undefined = block?.transactions[index];
    return block && tx
      ? formatTransaction(tx, {blockHash: block.hash(), blockNumber: block.header.number, index})
      : null;
  };
  return {
    /** Handler for `eth_getTransactionByHash` */
    getTransactionByHash: method([param("transactionHash", hash)], async (txHash) => {
      const found = await locate(txHash);
      if (found) return inBlock(found.block, found.index);
      const pending = txpool.get(txHash);
      return pending ? formatTransaction(pending) : null;
    }),
    /** Handler for `eth_getTransactionByBlockHashAndIndex` */
    getTransactionByBlockHashAndIndex: method(
      [param("blockHash", hash), param("index", quantityNumber)],
      async (h, index) => inBlock(await chain.getBlock(h), index),
    ),
    /** Handler for `eth_getTransactionByBlockNumberAndIndex` */
    getTransactionByBlockNumberAndIndex: method(
      [param("block", blockNumberOrTag), param("index", quantityNumber)],
      async (ref, index) => {
        const block = await findBlock(chain, ref, options, pendingBlock);
        if (!pendingBlock || !isPendingRef(ref)) return inBlock(block, index);
        // The pending block's transactions are not included yet: null block fields (docs/rpc.md §2.4).
        const tx = block?.transactions[index];
        return tx ? formatTransaction(tx) : null;
      },
    ),
    /** Handler for `eth_getTransactionReceipt`: canonical transactions only */
    getTransactionReceipt: method([param("transactionHash", hash)], async (txHash) => {
      const found = await locate(txHash);
      const receipts = found && (await chain.getReceipts(found.block.hash()));
      return found && receipts ? formatReceipt(found.block, receipts, found.index) : null;
    }),
    /** Handler for `eth_pendingTransactions` */
    pendingTransactions: method([], () => txpool.pending().map((tx) => formatTransaction(tx, undefined, ZERO_HASH))),
  };
}

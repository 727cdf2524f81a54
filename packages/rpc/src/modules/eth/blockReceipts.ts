/**
 * eth_getBlockReceipts (docs/rpc.md §4.3), as geth answers it: the receipts of a block's
 * transactions in block order, each the object eth_getTransactionReceipt gives (§2.5, the REMASC
 * transaction's included); `[]` for a block without transactions (genesis); null for an unknown
 * block. The block is a number, a tag, a hash or an EIP-1898 map; `pending` reads as `latest`, as in
 * eth_getLogs: the pending block's receipts are not receipts of the chain. The answer is bounded by
 * the block's gas limit and counted against `maxResponseBytes` like any answer (§8).
 */
import {formatReceipt} from "../../format/receipt.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {blockRef} from "../../params/blockRef.ts";
import {method, param} from "../../params/method.ts";
import {findHeader} from "../../resolve/blocks.ts";

/** eth_getBlockReceipts. */
export function ethBlockReceiptMethods({
  chain,
  options,
}: Pick<ModuleDeps, "chain" | "options">): Record<string, RpcMethod> {
  return {
    /** Handler for `eth_getBlockReceipts`: the block's receipts in order, or null */
    getBlockReceipts: method([param("block", blockRef)], async (ref) => {
      // No pending source: `pending` names the head here.
      const header = await findHeader(chain, ref, options);
      if (!header) return null;
      const blockHash = header.hash();
      const [block, receipts] = await Promise.all([chain.getBlock(blockHash), chain.getReceipts(blockHash)]);
      if (!block || !receipts) return null;
      return block.transactions.map((_, index) => formatReceipt(block, receipts, index));
    }),
  };
}

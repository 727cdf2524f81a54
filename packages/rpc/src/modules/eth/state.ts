/** eth_* state queries (docs/rpc.md §4.3): at a block number, tag, hash or `{blockHash}`/`{blockNumber}` map. */
import {toData, toQuantity} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {blockRef, LATEST} from "../../params/blockRef.ts";
import {address, word} from "../../params/hex.ts";
import {method, optional, param} from "../../params/method.ts";
import {stateAt} from "../../resolve/blocks.ts";
import {HeadMemo, memoAtHead} from "./headMemo.ts";

/** eth_getBalance, eth_getStorageAt, eth_getTransactionCount (their answers at the head memoized, headMemo.ts), eth_getCode. */
export function ethStateMethods({
  chain,
  txpool,
  pendingBlock,
  options,
}: Pick<ModuleDeps, "chain" | "txpool" | "pendingBlock" | "options">): Record<string, RpcMethod> {
  const memo = new HeadMemo(chain);
  return {
    /** Handler for `eth_getBalance` */
    getBalance: memoAtHead(
      memo,
      method([param("address", address), optional("block", blockRef, LATEST)], async (account, block) =>
        toQuantity(await (await stateAt(chain, block, options, pendingBlock)).getBalance(account)),
      ),
    ),
    /** Handler for `eth_getStorageAt`: 32 bytes, zeros for a missing slot */
    getStorageAt: memoAtHead(
      memo,
      method(
        [param("address", address), param("position", word), param("block", blockRef)],
        async (account, slot, block) =>
          toData(await (await stateAt(chain, block, options, pendingBlock)).getStorage(account, slot)),
      ),
    ),
    /** Handler for `eth_getTransactionCount`: `pending` counts the txpool's pending transactions */
    getTransactionCount: memoAtHead(
      memo,
      method([param("address", address), optional("block", blockRef, LATEST)], async (account, block) => {
        if (block.kind === "tag" && block.tag === "pending") return toQuantity(await txpool.nextNonce(account));
        return toQuantity(await (await stateAt(chain, block, options)).getNonce(account));
      }),
    ),
    /** Handler for `eth_getCode` */
    getCode: method([param("address", address), param("block", blockRef)], async (account, block) =>
      toData(await (await stateAt(chain, block, options, pendingBlock)).getCode(account)),
    ),
  };
}

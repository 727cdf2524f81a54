/**
 * The environment of eth_call and eth_estimateGas: the message runs on the state after block B
 * with B's own header as the block context (as geth does), and BLOCKHASH sees B's 256 ancestors
 * on B's own chain.
 */
import type {ChainReader} from "@xchain/chain";
import {blockContextOf, type ExecutionBlockContext, type ExecutionChainView} from "@xchain/execution";
import type {BlockHeader} from "@xchain/primitives";
import {isCanonical} from "./blocks.ts";

/** How many ancestors BLOCKHASH reaches. */
const BLOCKHASH_WINDOW = 256;

/** The block context, chain view and state root of a call at `header`. */
export interface CallEnvironment {
  block: ExecutionBlockContext;
  chain: ExecutionChainView;
  stateRoot: Uint8Array;
}

/** Builds the environment of a call at `header`. */
export function callEnvironment(
  chain: Pick<ChainReader, "getHeader" | "getHeaderByNumber">,
  header: BlockHeader,
): CallEnvironment {
  // Only BLOCKHASH needs to know, and most calls never run it.
  let canonical: Promise<boolean> | undefined;
  return {
    block: blockContextOf(header),
    chain: {
      blockHash: async (n) => {
        if (n >= header.number || n < header.number - BLOCKHASH_WINDOW || n < 0) return undefined;
        canonical ??= isCanonical(chain, header);
        if (await canonical) return (await chain.getHeaderByNumber(n))?.hash();
        let ancestor: BlockHeader | undefined = header;
        while (ancestor && ancestor.number > n) ancestor = await chain.getHeader(ancestor.parentHash);
        return ancestor?.hash();
      },
      // A call runs no REMASC transaction.
      maturedBlock: undefined,
    },
    stateRoot: header.stateRoot,
  };
}

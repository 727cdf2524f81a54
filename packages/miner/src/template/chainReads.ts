/**
 * The reads of the chain a template needs, from the canonical index: a template always extends
 * the head, and the template manager drops one whose head moved while it was built.
 */
import type {Chainspec} from "@xchain/chainspec";
import {type ExecutionChainView, remascAncestry} from "@xchain/execution";
import {type AncestorLookup, forkDetectionAncestorHeights} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import type {MinerChain} from "../deps.ts";

/** How many recent ancestors BLOCKHASH can see. */
const BLOCKHASH_WINDOW = 256;

type CanonicalReader = Pick<MinerChain, "getHeaderByNumber">;

/**
 * BLOCKHASH, the blocks REMASC reads and the BlockHeader contract's headers for block `number` on the head,
 * by import's rules (executeOnParent.ts): on a forked chain BLOCKHASH at or below the anchor reads the fork's
 * ancestry, and REMASC processes no block at or below it.
 */
export async function templateChainView(
  chain: CanonicalReader & Pick<MinerChain, "fork" | "getBlock" | "getTotalDifficulty">,
  number: number,
  chainspec: Chainspec,
): Promise<ExecutionChainView> {
  const remasc = await remascAncestry(chainspec, number, chain.fork?.anchor.number, async (n) => {
    const header = await chain.getHeaderByNumber(n);
    const block = header && (await chain.getBlock(header.hash()));
    return block && {header: block.header, uncles: block.uncles};
  });
  return {...callChainView(chain, number), remasc};
}

/** The same view for a call in block `number` on the head, which runs no REMASC transaction. */
export function callChainView(
  chain: CanonicalReader & Pick<MinerChain, "fork" | "getBlock" | "getTotalDifficulty">,
  number: number,
): ExecutionChainView {
  return {
    blockHash: async (n) =>
      n >= number - BLOCKHASH_WINDOW && n < number ? (await chain.getHeaderByNumber(n))?.hash() : undefined,
    remasc: undefined,
    forkAncestry: chain.fork?.ancestry,
    headers: {
      headerAt: async (n) => (n >= 0 && n < number ? chain.getHeaderByNumber(n) : undefined),
      uncles: async (hash) => (await chain.getBlock(hash))?.uncles,
      totalDifficulty: (hash) => chain.getTotalDifficulty(hash),
    },
  };
}

/**
 * The ancestors the fork-detection data of block `number` reads (docs/protocol/header.md §5), loaded for a
 * synchronous lookup.
 */
export async function forkDetectionAncestors(chain: CanonicalReader, number: number): Promise<AncestorLookup> {
  const headers = new Map<number, BlockHeader>();
  for (const n of forkDetectionAncestorHeights(number)) {
    const header = await chain.getHeaderByNumber(n);
    if (header) headers.set(n, header);
  }
  return (n) => headers.get(n);
}

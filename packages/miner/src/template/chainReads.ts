/**
 * The reads of the chain a template needs, from the canonical index: a template always extends
 * the head, and the template manager drops one whose head moved while it was built.
 */
import {type ExecutionChainView, maturedBlockNumber} from "@xchain/execution";
import {type AncestorLookup, forkDetectionAncestorHeights} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import type {MinerChain} from "../deps.ts";

/** How many recent ancestors BLOCKHASH can see. */
const BLOCKHASH_WINDOW = 256;

type CanonicalReader = Pick<MinerChain, "getHeaderByNumber">;

/**
 * BLOCKHASH, the REMASC matured block and the BlockHeader contract's headers for block `number` on the head, by import's rules
 * (executeOnParent.ts): on a forked chain BLOCKHASH at or below the anchor reads the fork's
 * ancestry, and a matured block at or below it pays nothing.
 */
export async function templateChainView(
  chain: CanonicalReader & Pick<MinerChain, "fork" | "getBlock" | "getTotalDifficulty">,
  number: number,
  remascMaturity: number,
): Promise<ExecutionChainView> {
  const {fork} = chain;
  const maturedNumber = maturedBlockNumber(number, remascMaturity, fork?.anchor.number);
  const matured = maturedNumber === undefined ? undefined : await chain.getHeaderByNumber(maturedNumber);
  return {
    blockHash: async (n) =>
      n >= number - BLOCKHASH_WINDOW && n < number ? (await chain.getHeaderByNumber(n))?.hash() : undefined,
    maturedBlock: matured && {coinbase: matured.coinbase, paidFees: matured.paidFees},
    forkAncestry: fork?.ancestry,
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

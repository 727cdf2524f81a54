/**
 * The environment of eth_call and eth_estimateGas: the message runs on the state after block B
 * with B's own header as the block context (as geth does), and BLOCKHASH sees B's 256 ancestors
 * on B's own chain; on a forked chain, BLOCKHASH at or below the fork block is the upstream's
 * (`Chain.fork`'s ancestry, docs/forking.md §3). A traced block sees its ancestors the same way. A
 * call worker cannot ask this view: it follows B's parentHash through the stored headers instead
 * (execution's calls/storedAncestors.ts), which names the same ancestors; calls on a fork stay
 * in-process (callService.ts).
 */
import type {ChainReader} from "@xchain/chain";
import {
  blockContextOf,
  type ChainHeaders,
  type ExecutionBlockContext,
  type ExecutionChainView,
} from "@xchain/execution";
import type {BlockHeader} from "@xchain/primitives";
import {isCanonical} from "./blocks.ts";

/** How many ancestors BLOCKHASH reaches. */
const BLOCKHASH_WINDOW = 256;

/** The block context, chain view and state root of a call at `header`. */
export interface CallEnvironment {
  block: ExecutionBlockContext;
  chain: ExecutionChainView;
  stateRoot: Uint8Array;
  /** B's parent, from which a call worker finds B's ancestors. */
  parentHash: Uint8Array;
}

/** The chain a header's ancestors are read from. */
export type AncestorChain = Pick<
  ChainReader,
  "getHeader" | "getHeaderByNumber" | "getBlock" | "getTotalDifficulty" | "fork"
>;

/**
 * The ancestor of `header` at height `n` on `header`'s own chain (`header` itself at its own
 * height), or undefined. From the first canonical header up (`header` or an ancestor: the pending
 * block's parent, a fork's base) ancestors come from the canonical index; below it, by parent hash.
 */
export function ancestorLookup(
  chain: AncestorChain,
  header: BlockHeader,
): (n: number) => Promise<BlockHeader | undefined> {
  // Asked only when an ancestor is needed, and most calls never need one.
  let canonical: Promise<boolean> | undefined;
  let parentLookup: Promise<((n: number) => Promise<BlockHeader | undefined>) | undefined> | undefined;
  return async (n) => {
    if (n > header.number || n < 0) return undefined;
    if (n === header.number) return header;
    canonical ??= isCanonical(chain, header);
    if (await canonical) return chain.getHeaderByNumber(n);
    parentLookup ??= chain.getHeader(header.parentHash).then((parent) => parent && ancestorLookup(chain, parent));
    return (await parentLookup)?.(n);
  };
}

/** BLOCKHASH in a block whose own header is `header`: the 256 ancestors before it. */
export function blockHashView(chain: AncestorChain, header: BlockHeader): ExecutionChainView["blockHash"] {
  const ancestorAt = ancestorLookup(chain, header);
  return async (n) => {
    if (n >= header.number || n < header.number - BLOCKHASH_WINDOW) return undefined;
    return (await ancestorAt(n))?.hash();
  };
}

/** What the BlockHeader native contract reads in a block whose own header is `header`: its ancestors' headers. */
export function chainHeadersView(chain: AncestorChain, header: BlockHeader): ChainHeaders {
  const ancestorAt = ancestorLookup(chain, header);
  return {
    headerAt: (n) => (n < header.number ? ancestorAt(n) : Promise.resolve(undefined)),
    uncles: async (hash) => (await chain.getBlock(hash))?.uncles,
    totalDifficulty: (hash) => chain.getTotalDifficulty(hash),
  };
}

/**
 * Builds the environment of a call at `header`: the state after it is its effective state (a dev
 * control's edit of it, when there was one; docs/architecture.md, "Dev state edits").
 */
export function callEnvironment(
  chain: AncestorChain & Pick<ChainReader, "stateRootAfter">,
  header: BlockHeader,
): CallEnvironment {
  return {
    block: blockContextOf(header),
    // A call runs no REMASC transaction.
    chain: {
      blockHash: blockHashView(chain, header),
      remasc: undefined,
      forkAncestry: chain.fork?.ancestry,
      headers: chainHeadersView(chain, header),
    },
    stateRoot: chain.stateRootAfter(header),
    parentHash: header.parentHash,
  };
}

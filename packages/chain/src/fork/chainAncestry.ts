/**
 * The `ForkAncestry` of a fork of a chain this process reads itself (a local source chain: the
 * reference forks are checked against in tests, and a fork of the node's own chain); an upstream's
 * ancestry asks the upstream instead.
 */
import type {ForkAncestry} from "@xchain/execution";
import type {ChainReader} from "../types.ts";

/** The canonical hashes of `source` at and below its block `forkNumber`. */
export function chainAncestry(source: Pick<ChainReader, "getHeaderByNumber">, forkNumber: number): ForkAncestry {
  return {
    number: forkNumber,
    async hashAt(blockNumber: number): Promise<Uint8Array | undefined> {
      if (blockNumber > forkNumber) return undefined;
      return (await source.getHeaderByNumber(blockNumber))?.hash();
    },
  };
}

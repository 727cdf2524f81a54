/** A chain view's BlockHeader-contract reads for tests whose messages never reach that contract. */
import type {ChainHeaders} from "@xchain/execution";

/** Answers no header, no uncles and no total difficulty (the BlockHeader contract then answers empty bytes). */
export const NO_CHAIN_HEADERS: ChainHeaders = {
  headerAt: async () => undefined,
  uncles: async () => undefined,
  totalDifficulty: async () => undefined,
};

import type {Chainspec} from "@xchain/chainspec";
import type {Block} from "@xchain/primitives";
import {BlockError, BlockErrorCode} from "../../errors.ts";

/**
 * Every signed transaction carries this network's chain id or none (docs/protocol/transactions.md). Decoding
 * a block's bytes already enforces it; this covers blocks handed over as objects (the miner's).
 */
export function chainIdRule(block: Block, chainspec: Chainspec): void {
  const expected = chainspec.params.chainId;
  block.transactions.forEach((tx, index) => {
    if (tx.chainId !== undefined && tx.chainId !== expected) {
      throw new BlockError({code: BlockErrorCode.TRANSACTION_WRONG_CHAIN_ID, index, expected, actual: tx.chainId});
    }
  });
}

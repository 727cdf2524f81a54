import type {Chainspec} from "@xchain/chainspec";
import {GAS_PRICE_CAP_MULTIPLIER} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {BlockError, BlockErrorCode} from "../../errors.ts";

/**
 * Every transaction but the closing REMASC one pays at least the block's minimumGasPrice
 * (`TxsMinGasPriceRule`) and, from RSKIP-252 on, at most 100 × it unless it is 0
 * (`BlockTxsMaxGasPriceRule`), B§5.1.
 */
export function gasPriceRule(block: Block, chainspec: Chainspec): void {
  const {minimumGasPrice, number} = block.header;
  const cap =
    chainspec.isActive("RSKIP252", number) && minimumGasPrice > 0n
      ? minimumGasPrice * GAS_PRICE_CAP_MULTIPLIER
      : undefined;
  const last = block.remascTransaction ? block.transactions.length - 1 : block.transactions.length;
  block.transactions.slice(0, last).forEach(({gasPrice}, index) => {
    if (gasPrice < minimumGasPrice) {
      throw new BlockError({code: BlockErrorCode.GAS_PRICE_BELOW_MINIMUM, index, gasPrice, minimumGasPrice});
    }
    if (cap !== undefined && gasPrice > cap) {
      throw new BlockError({code: BlockErrorCode.GAS_PRICE_ABOVE_CAP, index, gasPrice, cap});
    }
  });
}

import type {Chainspec} from "@xchain/chainspec";
import {type GasPriceViolation, gasPriceViolation, TransactionInvalidCode} from "@xchain/execution";
import type {Block} from "@xchain/primitives";
import {BlockError, BlockErrorCode, type BlockErrorType} from "../../errors.ts";

/**
 * Every transaction but the closing REMASC one obeys execution's gas-price rule
 * (`gasPriceViolation`: `TxsMinGasPriceRule` and RSKIP-252 `BlockTxsMaxGasPriceRule`, docs/protocol/fees.md §1); the
 * first that does not is a `BlockError` naming its index.
 */
export function gasPriceRule(block: Block, chainspec: Chainspec): void {
  const {minimumGasPrice, number} = block.header;
  const capActive = chainspec.isActive("RSKIP252", number);
  const last = block.remascTransaction ? block.transactions.length - 1 : block.transactions.length;
  block.transactions.slice(0, last).forEach(({gasPrice}, index) => {
    const violation = gasPriceViolation(gasPrice, minimumGasPrice, capActive);
    if (violation) throw new BlockError(atIndex(violation, index));
  });
}

function atIndex(violation: GasPriceViolation, index: number): BlockErrorType {
  return violation.code === TransactionInvalidCode.GAS_PRICE_BELOW_MINIMUM
    ? {
        code: BlockErrorCode.GAS_PRICE_BELOW_MINIMUM,
        index,
        gasPrice: violation.gasPrice,
        minimumGasPrice: violation.minimumGasPrice,
      }
    : {code: BlockErrorCode.GAS_PRICE_ABOVE_CAP, index, gasPrice: violation.gasPrice, cap: violation.cap};
}

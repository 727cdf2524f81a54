/**
 * Why the pool refused a transaction: a `TxPoolErrorCode` with its metadata, and a message in
 * geth's and rskj's words ("nonce too low", "transaction underpriced"…) that RPC returns
 * verbatim, so that wallet libraries recognise the usual phrases.
 */
import {NodeError} from "@xchain/utils";
import {TxPoolErrorCode} from "./types.ts";

/** Each code with its metadata. */
export type TxPoolErrorType =
  | {code: TxPoolErrorCode.TOO_LARGE; sizeBytes: number; maxBytes: number}
  | {code: TxPoolErrorCode.DECODE; reason: string; detail: string}
  | {code: TxPoolErrorCode.WRONG_CHAIN_ID; chainId: number; expected: number}
  | {code: TxPoolErrorCode.INVALID_SIGNATURE; detail: string}
  | {code: TxPoolErrorCode.REMASC_NOT_ACCEPTED}
  | {code: TxPoolErrorCode.ALREADY_KNOWN; hash: string}
  | {code: TxPoolErrorCode.INITCODE_TOO_LARGE; sizeBytes: number; maxBytes: number}
  | {code: TxPoolErrorCode.GAS_LIMIT_ABOVE_BLOCK; gasLimit: bigint; blockGasLimit: bigint}
  | {code: TxPoolErrorCode.NONCE_TOO_LOW; nonce: bigint; accountNonce: bigint}
  | {code: TxPoolErrorCode.NONCE_TOO_HIGH; nonce: bigint; accountNonce: bigint; maxGap: number}
  | {code: TxPoolErrorCode.INSUFFICIENT_FUNDS; balance: bigint; required: bigint}
  | {code: TxPoolErrorCode.GAS_PRICE_TOO_LOW; gasPrice: bigint; minimumGasPrice: bigint}
  | {code: TxPoolErrorCode.INTRINSIC_GAS_TOO_LOW; gasLimit: bigint; intrinsicGas: bigint}
  | {code: TxPoolErrorCode.GAS_PRICE_ABOVE_CAP; gasPrice: bigint; cap: bigint}
  | {code: TxPoolErrorCode.REPLACEMENT_UNDERPRICED; gasPrice: bigint; required: bigint}
  | {code: TxPoolErrorCode.SENDER_LIMIT; limit: number}
  | {code: TxPoolErrorCode.POOL_FULL; limit: number; unit: "transactions" | "bytes"}
  | {code: TxPoolErrorCode.STORAGE_UNAVAILABLE; reason: string}
  | {code: TxPoolErrorCode.IMPERSONATION_DISABLED; sender: string}
  | {code: TxPoolErrorCode.NOT_IMPERSONATED; sender: string}
  | {code: TxPoolErrorCode.RESERVED_SENDER; sender: string};

/** A refused transaction; `message` is what RPC shows (-32010). */
export class TxPoolError extends NodeError<TxPoolErrorType> {
  constructor(type: TxPoolErrorType) {
    super(type, describe(type));
  }
}

function describe(t: TxPoolErrorType): string {
  switch (t.code) {
    case TxPoolErrorCode.TOO_LARGE:
      return `oversized data: transaction of ${t.sizeBytes} bytes, at most ${t.maxBytes}`;
    case TxPoolErrorCode.DECODE:
      return `invalid transaction: ${t.detail}`;
    case TxPoolErrorCode.WRONG_CHAIN_ID:
      return `invalid chain id: transaction for chain ${t.chainId}, this node is chain ${t.expected}`;
    case TxPoolErrorCode.INVALID_SIGNATURE:
      return `invalid sender: ${t.detail}`;
    case TxPoolErrorCode.REMASC_NOT_ACCEPTED:
      return "REMASC transactions are not accepted";
    case TxPoolErrorCode.ALREADY_KNOWN:
      return "already known";
    case TxPoolErrorCode.INITCODE_TOO_LARGE:
      return `max initcode size exceeded: ${t.sizeBytes} bytes, at most ${t.maxBytes}`;
    case TxPoolErrorCode.GAS_LIMIT_ABOVE_BLOCK:
      return `exceeds block gas limit: gas limit ${t.gasLimit}, block gas limit ${t.blockGasLimit}`;
    case TxPoolErrorCode.NONCE_TOO_LOW:
      return `nonce too low: tx nonce ${t.nonce}, account nonce ${t.accountNonce}`;
    case TxPoolErrorCode.NONCE_TOO_HIGH:
      return `nonce too high: tx nonce ${t.nonce}, account nonce ${t.accountNonce}, at most ${t.maxGap - 1} ahead`;
    case TxPoolErrorCode.INSUFFICIENT_FUNDS:
      return `insufficient funds for gas * price + value: have ${t.balance} want ${t.required}`;
    case TxPoolErrorCode.GAS_PRICE_TOO_LOW:
      return `transaction underpriced: gas price ${t.gasPrice} below the minimum gas price ${t.minimumGasPrice}`;
    case TxPoolErrorCode.INTRINSIC_GAS_TOO_LOW:
      return `intrinsic gas too low: gas limit ${t.gasLimit}, intrinsic gas ${t.intrinsicGas}`;
    case TxPoolErrorCode.GAS_PRICE_ABOVE_CAP:
      return `gas price ${t.gasPrice} above the cap ${t.cap} (80 × the minimum gas price, RSKIP-252)`;
    case TxPoolErrorCode.REPLACEMENT_UNDERPRICED:
      return `replacement transaction underpriced: gas price ${t.gasPrice}, at least ${t.required} needed`;
    case TxPoolErrorCode.SENDER_LIMIT:
      return `account limit exceeded: at most ${t.limit} transactions per sender`;
    case TxPoolErrorCode.POOL_FULL:
      return `txpool is full: ${t.limit} ${t.unit}, none cheaper than this one`;
    case TxPoolErrorCode.STORAGE_UNAVAILABLE:
      return `the node cannot store blocks now: ${t.reason}`;
    case TxPoolErrorCode.IMPERSONATION_DISABLED:
      return `unsigned transaction from ${t.sender} refused: the dev controls are off on this node (miner.devControls)`;
    case TxPoolErrorCode.NOT_IMPERSONATED:
      return `unsigned transaction from ${t.sender} refused: the account is not impersonated (anvil_impersonateAccount)`;
    case TxPoolErrorCode.RESERVED_SENDER:
      return `unsigned transaction from ${t.sender} refused: the zero address sends every block's REMASC transaction, whose nonce it must keep`;
  }
}

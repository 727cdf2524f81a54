/**
 * What eth_sendTransaction, eth_sign and personal_* share: the dev wallet's account checks and
 * sending from it (docs/rpc.md §4.4: gas 90,000 unless given, gasPrice 0 where the pool admits it, else
 * eth_gasPrice's; the nonce follows the txpool's pending transactions).
 */
import type {MinerApi} from "@xchain/miner";
import {type Transaction, TransactionDecodeError, TransactionDecodeErrorCode} from "@xchain/primitives";
import type {TxPoolApi} from "@xchain/txpool";
import {toData} from "@xchain/utils";
import type {DevWallet} from "../deps.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import type {CallRequest} from "../params/callObject.ts";
import {suggestedGasPrice} from "./eth/chainInfo.ts";

/** docs/rpc.md §8: eth_sendTransaction's default gas. */
const DEFAULT_GAS = 90_000n;

/** The wallet holding `address`, or -32000 saying why not. */
export function requireAccount(wallet: DevWallet | undefined, address: Uint8Array): DevWallet {
  if (!wallet) {
    throw RpcError.server("this node holds no accounts: sign transactions yourself and use eth_sendRawTransaction");
  }
  if (!wallet.hasAccount(address)) throw RpcError.server(`unknown account ${toData(address)}`);
  return wallet;
}

/**
 * The answer to a submitted transaction: its hash, once mined when the built-in miner mines instantly
 * (`MinerApi.whenMined`), so that a client's first eth_getTransactionReceipt finds the receipt.
 */
export async function submittedHash(miner: Pick<MinerApi, "whenMined"> | undefined, hash: Uint8Array): Promise<string> {
  await miner?.whenMined(hash);
  return toData(hash);
}

/**
 * Signs `request` with the wallet's key for `request.from` and submits it; returns the hash (see
 * `submittedHash`). `minimumGasPrice` is the best block's, which the pool admits no less than.
 */
export async function sendFromWallet(
  wallet: DevWallet | undefined,
  txpool: Pick<TxPoolApi, "add" | "nextNonce">,
  request: CallRequest,
  minimumGasPrice: bigint,
  miner?: Pick<MinerApi, "whenMined">,
): Promise<string> {
  const {from} = request;
  if (!from) throw RpcError.invalidParams("invalid argument 0 (transaction.from): required");
  const signer = requireAccount(wallet, from);
  const values = {
    nonce: request.nonce ?? (await txpool.nextNonce(from)),
    // docs/rpc.md §8: rskj's 0 where the pool admits it, else what eth_gasPrice suggests.
    gasPrice: request.gasPrice ?? (minimumGasPrice === 0n ? 0n : suggestedGasPrice(minimumGasPrice)),
    gasLimit: request.gas ?? DEFAULT_GAS,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(0),
  };
  let tx: Transaction;
  try {
    tx = signer.signTransaction(from, values);
  } catch (e) {
    // value and gasPrice are signed coins, below 2^255 (docs/protocol/encoding.md §2): a bad argument, named.
    if (e instanceof TransactionDecodeError && e.type.code === TransactionDecodeErrorCode.NUMBER_OUT_OF_RANGE) {
      throw RpcError.invalidParams(
        `invalid argument 0 (transaction.${e.type.field}): ${e.message.replace(/^tx: /, "")}`,
      );
    }
    throw e;
  }
  return submittedHash(miner, (await txpool.add(tx)).hash);
}

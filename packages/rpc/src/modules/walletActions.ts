/**
 * What eth_sendTransaction, eth_sendUnsignedTransaction, eth_sign and personal_* share: the dev
 * wallet's account checks and sending from it or from an impersonated account (docs/rpc.md §4.4: gas
 * 90,000 unless given, gasPrice 0 where the pool admits it, else eth_gasPrice's; the nonce follows the
 * txpool's pending transactions; §4.10 for impersonation).
 */
import type {ImpersonationControls, MinerApi} from "@xchain/miner";
import {
  type Transaction,
  TransactionDecodeError,
  TransactionDecodeErrorCode,
  type TransactionValues,
} from "@xchain/primitives";
import {type TxPoolApi, TxPoolError, TxPoolErrorCode} from "@xchain/txpool";
import {hexToBytes, keccak256, toData} from "@xchain/utils";
import type {DevWallet, RpcChain} from "../deps.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import type {CallRequest} from "../params/callObject.ts";
import {suggestedGasPrice} from "./eth/chainInfo.ts";

/** docs/rpc.md §8: eth_sendTransaction's default gas. */
const DEFAULT_GAS = 90_000n;

/**
 * The wallet holding `address`, or -32000 saying why not; where the node can impersonate
 * (`impersonation` on), the message names that way too.
 */
export function requireAccount(
  wallet: DevWallet | undefined,
  address: Uint8Array,
  impersonation?: Pick<ImpersonationControls, "enabled">,
): DevWallet {
  const impersonable = impersonation?.enabled === true;
  if (!wallet) {
    throw RpcError.server(
      "this node holds no accounts: sign transactions yourself and use eth_sendRawTransaction" +
        (impersonable ? ", or impersonate the account (anvil_impersonateAccount)" : ""),
    );
  }
  if (!wallet.hasAccount(address)) {
    const orImpersonated = impersonable ? ", and not impersonated (anvil_impersonateAccount)" : "";
    throw RpcError.server(`unknown account ${toData(address)}${orImpersonated}`);
  }
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
 * Admits the signed transaction `raw` to the pool and answers its hash (see `submittedHash`). A resend of a
 * transaction the node has already, pending in its pool or in the canonical chain, answers its hash as the first
 * send did, where geth answers "already known" or "nonce too low": a retry, a client's or a balancer's after a
 * node died (docs/operations.md §11), is then invisible to the client (docs/rpc.md §4.4).
 */
export async function sendRaw(
  raw: Uint8Array,
  {
    txpool,
    miner,
    chain,
  }: {
    txpool: Pick<TxPoolApi, "addRaw">;
    miner?: Pick<MinerApi, "whenMined"> | undefined;
    chain: Pick<RpcChain, "getTransactionLocation">;
  },
): Promise<string> {
  try {
    return await submittedHash(miner, (await txpool.addRaw(raw)).hash);
  } catch (e) {
    if (!(e instanceof TxPoolError)) throw e;
    if (e.type.code === TxPoolErrorCode.ALREADY_KNOWN) return submittedHash(miner, hexToBytes(e.type.hash));
    if (e.type.code !== TxPoolErrorCode.NONCE_TOO_LOW) throw e;
    const hash = keccak256(raw);
    if ((await chain.getTransactionLocation(hash)) === undefined) throw e;
    return toData(hash);
  }
}

/** Where a sent transaction goes: the pool, and the miner that may mine it at once. */
export interface SendTarget {
  txpool: Pick<TxPoolApi, "add" | "addUnsigned" | "nextNonce">;
  miner?: Pick<MinerApi, "whenMined"> | undefined;
  /** The best block's minimum gas price, which the pool admits no less than. */
  minimumGasPrice: bigint;
}

/** `request.from`, required: -32602 without it. */
export function requireFrom(request: CallRequest): Uint8Array {
  if (!request.from) throw RpcError.invalidParams("invalid argument 0 (transaction.from): required");
  return request.from;
}

/**
 * Builds the transaction `request` asks `from` to send (docs/rpc.md §4.4's defaults) with `build`
 * (a wallet's signature, or an impersonation's), submits it to the pool (`unsigned`: as
 * eth_sendUnsignedTransaction) and answers its hash (see `submittedHash`).
 */
export async function sendRequest(
  request: CallRequest,
  from: Uint8Array,
  build: (values: TransactionValues) => Transaction,
  {txpool, miner, minimumGasPrice}: SendTarget,
  unsigned = false,
): Promise<string> {
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
    tx = build(values);
  } catch (e) {
    // value and gasPrice are signed coins, below 2^255 (docs/protocol/encoding.md §2): a bad argument, named.
    if (e instanceof TransactionDecodeError && e.type.code === TransactionDecodeErrorCode.NUMBER_OUT_OF_RANGE) {
      throw RpcError.invalidParams(
        `invalid argument 0 (transaction.${e.type.field}): ${e.message.replace(/^tx: /, "")}`,
      );
    }
    throw e;
  }
  const added = unsigned ? await txpool.addUnsigned(tx) : await txpool.add(tx);
  return submittedHash(miner, added.hash);
}

/** Signs `request` with the wallet's key for `request.from` and submits it; returns the hash (see `sendRequest`). */
export function sendFromWallet(
  wallet: DevWallet | undefined,
  request: CallRequest,
  target: SendTarget,
): Promise<string> {
  const from = requireFrom(request);
  const signer = requireAccount(wallet, from);
  return sendRequest(request, from, (values) => signer.signTransaction(from, values), target);
}

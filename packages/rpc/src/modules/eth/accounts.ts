/** eth_accounts, eth_sendRawTransaction, eth_sendTransaction, eth_sign (docs/rpc.md §4.2, §4.4). */
import {toData} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {callRequest} from "../../params/callObject.ts";
import {address, data} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {requireAccount, sendFromWallet, submittedHash} from "../walletActions.ts";

/** The sending and signing eth_* methods. */
export function ethAccountMethods({
  chain,
  txpool,
  wallet,
  miner,
}: Pick<ModuleDeps, "chain" | "txpool" | "wallet" | "miner">): Record<string, RpcMethod> {
  return {
    /** Handler for `eth_accounts`: the dev wallet's accounts, `[]` without one */
    accounts: method([], () => (wallet?.accounts() ?? []).map(toData)),
    /** Handler for `eth_sendRawTransaction`: a refusal is -32010 with the txpool's reason; see `submittedHash` */
    sendRawTransaction: method([param("transaction", data)], async (raw) =>
      submittedHash(miner, (await txpool.addRaw(raw)).hash),
    ),
    /** Handler for `eth_sendTransaction` */
    sendTransaction: method([param("transaction", callRequest)], (request) =>
      sendFromWallet(wallet, txpool, request, chain.head().header.minimumGasPrice, miner),
    ),
    /** Handler for `eth_sign` */
    sign: method([param("address", address), param("message", data)], (account, message) =>
      toData(requireAccount(wallet, account).signMessage(account, message)),
    ),
  };
}

/**
 * The `personal` namespace over the dev wallet: its accounts have no passphrase and are always
 * unlocked, so passphrases are accepted and ignored; key management is not offered.
 */
import {toData} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {callRequest} from "../params/callObject.ts";
import {string} from "../params/codec.ts";
import {address, quantity} from "../params/hex.ts";
import {method, optional, param} from "../params/method.ts";
import {unsupportedMethods} from "./unsupported.ts";
import {requireAccount, sendFromWallet} from "./walletActions.ts";

/** personal_* methods. */
export function personalMethods({
  chain,
  wallet,
  txpool,
}: Pick<ModuleDeps, "chain" | "wallet" | "txpool">): Record<string, RpcMethod> {
  return {
    /** Handler for `personal_listAccounts` */
    listAccounts: method([], () => (wallet?.accounts() ?? []).map(toData)),
    /** Handler for `personal_sendTransaction` */
    sendTransaction: method([param("transaction", callRequest), param("passphrase", string)], (request) =>
      sendFromWallet(wallet, txpool, request, chain.head().header.minimumGasPrice),
    ),
    /** Handler for `personal_unlockAccount`: true for an account the wallet holds */
    unlockAccount: method(
      [param("address", address), param("passphrase", string), optional("durationSeconds", quantity)],
      (account) => {
        requireAccount(wallet, account);
        return true;
      },
    ),
    ...unsupportedMethods(
      ["dumpRawKey", "importRawKey", "lockAccount", "newAccount", "newAccountWithSeed"],
      "the dev wallet has fixed accounts and no key management",
    ),
  };
}

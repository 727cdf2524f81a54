/**
 * The accounts group of the anvil and Hardhat controls (docs/rpc.md §4.10): impersonateAccount,
 * stopImpersonatingAccount and autoImpersonateAccount. Sends from an impersonated account
 * (eth_sendTransaction) are executed as if it signed them. Each answers null, as anvil does under
 * both prefixes (Hardhat answers true, which its helpers do not read); each refuses where the dev
 * controls are off (MinerError NOT_ALLOWED, -32602).
 */
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {bool} from "../../params/codec.ts";
import {address} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {requireImpersonation} from "../unavailable.ts";

/** impersonateAccount, stopImpersonatingAccount, autoImpersonateAccount (names without the prefix). */
export function accountMethods({impersonation}: Pick<ModuleDeps, "impersonation">): Record<string, RpcMethod> {
  return {
    /** Handler for `anvil_impersonateAccount` / `hardhat_impersonateAccount` */
    impersonateAccount: method([param("address", address)], (account) => {
      requireImpersonation(impersonation).impersonate(account);
      return null;
    }),
    /** Handler for `anvil_stopImpersonatingAccount` / `hardhat_stopImpersonatingAccount` */
    stopImpersonatingAccount: method([param("address", address)], (account) => {
      requireImpersonation(impersonation).stopImpersonating(account);
      return null;
    }),
    /** Handler for `anvil_autoImpersonateAccount` (Hardhat has none; anvil takes both prefixes) */
    autoImpersonateAccount: method([param("enabled", bool)], (enabled) => {
      requireImpersonation(impersonation).setAutoImpersonate(enabled);
      return null;
    }),
  };
}

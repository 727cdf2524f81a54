/**
 * eth_accounts, eth_sendRawTransaction, eth_sendTransaction, eth_sendUnsignedTransaction, eth_sign and
 * eth_signTypedData_v4 (docs/rpc.md §4.2, §4.4, §4.10). eth_sendTransaction from an impersonated account
 * sends without its key, as anvil does; eth_sendUnsignedTransaction (anvil's) does so for any `from` while
 * the dev controls are on.
 */
import {Transaction} from "@xchain/primitives";
import {toData} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {callRequest} from "../../params/callObject.ts";
import {address, data} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {typedData} from "../../params/typedData.ts";
import {typedDataHash} from "../../typedDataHash.ts";
import {requireImpersonation} from "../unavailable.ts";
import {unsupportedMethods} from "../unsupported.ts";
import {requireAccount, requireFrom, type SendTarget, sendRaw, sendRequest} from "../walletActions.ts";

/** Why the older typed-data methods are not served (docs/rpc.md §4.4). */
const OLD_TYPED_DATA_REASON =
  "eth_signTypedData (v1, an early draft of EIP-712) and eth_signTypedData_v3 (without arrays) are not served; sign with eth_signTypedData_v4, which viem, ethers and web3.js send";

/** The sending and signing eth_* methods. */
export function ethAccountMethods({
  chainspec,
  chain,
  txpool,
  wallet,
  miner,
  impersonation,
}: Pick<ModuleDeps, "chainspec" | "chain" | "txpool" | "wallet" | "miner" | "impersonation">): Record<
  string,
  RpcMethod
> {
  const {chainId} = chainspec.params;
  const target = (): SendTarget => ({txpool, miner, minimumGasPrice: chain.head().header.minimumGasPrice});
  return {
    /** Handler for `eth_accounts`: the dev wallet's accounts, `[]` without one */
    accounts: method([], () => (wallet?.accounts() ?? []).map(toData)),
    /** Handler for `eth_sendRawTransaction`: a refusal is -32010 with the txpool's reason; see `sendRaw` */
    sendRawTransaction: method([param("transaction", data)], (raw) => sendRaw(raw, {txpool, miner, chain})),
    /** Handler for `eth_sendTransaction`: signed by the dev wallet, or sent as an impersonated account */
    sendTransaction: method([param("transaction", callRequest)], (request) => {
      const from = requireFrom(request);
      if (impersonation?.allows(from)) {
        return sendRequest(request, from, (values) => Transaction.impersonate(values, from, chainId), target());
      }
      const signer = requireAccount(wallet, from, impersonation);
      return sendRequest(request, from, (values) => signer.signTransaction(from, values), target());
    }),
    /** Handler for `eth_sendUnsignedTransaction` (anvil's): sent as `from` without its key, where the dev controls are on */
    sendUnsignedTransaction: method([param("transaction", callRequest)], (request) => {
      requireImpersonation(impersonation).requireEnabled();
      const from = requireFrom(request);
      return sendRequest(request, from, (values) => Transaction.impersonate(values, from, chainId), target(), true);
    }),
    /** Handler for `eth_sign` */
    sign: method([param("address", address), param("message", data)], (account, message) =>
      toData(requireAccount(wallet, account).signMessage(account, message)),
    ),
    /** Handler for `eth_signTypedData_v4`: EIP-712, checked first (docs/rpc.md §4.4) */
    signTypedData_v4: method([param("address", address), param("typedData", typedData)], async (account, typed) => {
      const signer = requireAccount(wallet, account);
      return toData(signer.signDigest(account, await typedDataHash(typed, "1 (typedData)")));
    }),
    ...unsupportedMethods(["signTypedData", "signTypedData_v3"], OLD_TYPED_DATA_REASON),
  };
}

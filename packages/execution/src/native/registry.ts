/**
 * The native contracts xchain executes, one entry each (docs/protocol/native-contracts.md §1). An RSK native
 * address with no entry here (precompiles/addresses.ts) stays an ordinary account, as before its RSKIP; on a
 * forked chain every native address whose contract is missing here or does not run on a fork stops the
 * message with `NativeContractUnavailableError` (docs/forking.md §6).
 */
import {blockHeader} from "./blockHeader/blockHeader.ts";
import {bridgeContract} from "./bridge/contract.ts";
import type {NativeContract} from "./dispatch/types.ts";
import {environment} from "./environment/environment.ts";
import {hdWalletUtils} from "./hdWallet/hdWalletUtils.ts";
import {remascContract} from "./remasc/contract.ts";

/** Every implemented native contract; each helper adds its own line. */
export const NATIVE_CONTRACT_IMPLEMENTATIONS: readonly NativeContract[] = [
  bridgeContract,
  remascContract,
  hdWalletUtils,
  blockHeader,
  environment,
];

/**
 * The native contracts xchain executes, one entry for each address of precompiles/addresses.ts
 * (docs/protocol/native-contracts.md §1). Before its RSKIP a contract's address is an ordinary account; on a
 * forked chain a contract that does not run on a fork stops the message with `NativeContractUnavailableError`
 * (docs/forking.md §6).
 */
import {blockHeader} from "./blockHeader/blockHeader.ts";
import {bridgeContract} from "./bridge/contract.ts";
import type {NativeContract} from "./dispatch/types.ts";
import {environment} from "./environment/environment.ts";
import {hdWalletUtils} from "./hdWallet/hdWalletUtils.ts";
import {remascContract} from "./remasc/contract.ts";
import {secp256k1Addition, secp256k1Multiplication} from "./secp256k1/secp256k1.ts";

/** Every RSK native contract. */
export const NATIVE_CONTRACT_IMPLEMENTATIONS: readonly NativeContract[] = [
  bridgeContract,
  remascContract,
  hdWalletUtils,
  blockHeader,
  environment,
  secp256k1Addition,
  secp256k1Multiplication,
];

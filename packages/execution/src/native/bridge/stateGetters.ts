/**
 * The Bridge's other getters (docs/protocol/native-contracts.md §10.2, §10.3): fee per kb, locking
 * cap, lock minimum, processed Bitcoin transactions, the peg-out queue and the state snapshots. The
 * light client's getters are in btc/methods.ts, the lock whitelist's in lockWhitelistMethods.ts.
 */
import {RLP} from "@ethereumjs/rlp";
import {bytesToHex, hexToBytesOrNull} from "@xchain/utils";
import {type AbiValue, abiFunction} from "../dispatch/abi.ts";
import {type BridgeMethod, bridgeFailure, price} from "./call.ts";
import {estimatedPegoutFees} from "./pegoutFees.ts";
import {decodePegoutsWaitingForSignatures, rskTxHashOrder} from "./serialization.ts";
import {encodeStateForDebugging} from "./state.ts";
import {BridgeKey, plainKey} from "./storageKeys.ts";

function getter(
  name: string,
  inputs: string[],
  output: string,
  gas: number,
  localOnly: boolean,
  run: BridgeMethod["run"],
): BridgeMethod {
  return {fn: abiFunction(name, inputs, [output]), gas: price(gas), localOnly, acceptsStaticCall: true, run};
}

/** A Bitcoin tx hash given as a string: 64 hex digits, display order, no 0x (`Sha256Hash.wrap`). */
function txHashArgument(method: string, value: AbiValue): Uint8Array {
  const text = value as string;
  const hash = text.length === 64 ? hexToBytesOrNull(text) : null;
  if (!hash) throw bridgeFailure(method, `"${text}" is not a 64-digit hex transaction hash`);
  return hash;
}

export const stateGetters: readonly BridgeMethod[] = [
  getter("getFeePerKb", [], "int256", 2_000, true, (_a, call) => call.storage.feePerKb()),
  getter("getMinimumLockTxValue", [], "int256", 2_000, true, (_a, call) => call.storage.constants.minimumPeginTxValue),
  getter("getLockingCap", [], "int256", 3_000, true, async (_a, call) => (await call.storage.lockingCap()).value),
  getter("isBtcTxHashAlreadyProcessed", ["string"], "bool", 23_000, true, async ([hash], call) => {
    return (
      (await call.storage.processedHeight(txHashArgument("isBtcTxHashAlreadyProcessed", hash as AbiValue))) !==
      undefined
    );
  }),
  getter("getBtcTxHashProcessedHeight", ["string"], "int64", 22_000, true, async ([hash], call) => {
    return (await call.storage.processedHeight(txHashArgument("getBtcTxHashProcessedHeight", hash as AbiValue))) ?? -1n;
  }),
  getter("getQueuedPegoutsCount", [], "uint256", 3_000, false, async (_a, call) => {
    return BigInt((await call.storage.releaseRequestQueue()).length);
  }),
  getter("getNextPegoutCreationBlockNumber", [], "uint256", 3_000, false, (_a, call) =>
    call.storage.nextPegoutHeight(),
  ),
  getter("getEstimatedFeesForNextPegOutEvent", [], "uint256", 10_000, false, async (_a, call) => {
    const queued = (await call.storage.releaseRequestQueue()).length;
    return estimatedPegoutFees(call.federation, await call.storage.feePerKb(), 2, queued + 2);
  }),
  getter("getStateForDebugging", [], "bytes", 3_000_000, true, (_a, call) => encodeStateForDebugging(call.storage)),
  getter("getStateForBtcReleaseClient", [], "bytes", 4_000, true, async (_a, call) => {
    const raw = await call.storage.get(BridgeKey.rskTxsWaitingFS);
    // StateForFederator: a list holding the serialized map (an RLP list of [rskTxHash, btcTx]*).
    const entries = decodePegoutsWaitingForSignatures("rskTxsWaitingFS", raw);
    entries.sort((a, b) => rskTxHashOrder(a.rskTxHash, b.rskTxHash));
    return RLP.encode([entries.flatMap((e) => [e.rskTxHash, e.btcTx])]);
  }),
  getter("getStateForSvpClient", [], "bytes", 4_000, true, async (_a, call) => {
    const stored = await call.storage.get(plainKey("svpSpendTxWaitingForSignatures"));
    if (stored.length > 0)
      throw bridgeFailure(
        "getStateForSvpClient",
        `the stored SVP spend tx (0x${bytesToHex(stored)}) is not read by xchain`,
      );
    return RLP.encode([[]]);
  }),
];

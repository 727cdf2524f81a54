/**
 * The federation getters (docs/protocol/native-contracts.md §10.2, §10.3): the active federation is
 * the genesis one; no retiring, pending or proposed federation exists (xchain runs no federation
 * change, tier C), so their getters answer rskj's "none" values: −1, "" or empty bytes. A storage
 * key of those federations holding a value (never written by xchain) fails the call rather than
 * being misread.
 */
import {bytesToHex} from "@xchain/utils";
import {abiFunction} from "../dispatch/abi.ts";
import {type BridgeCall, type BridgeMethod, bridgeFailure, price} from "./call.ts";
import {plainKey} from "./storageKeys.ts";

/** rskj's `FEDERATION_NON_EXISTENT`. */
const NONE = -1n;
const EMPTY = new Uint8Array(0);
const KEY_TYPES = new Set(["btc", "rsk", "mst"]);

/** Getters of a federation xchain never stores: fail if its key holds something, else answer `value`. */
async function absent<T>(call: BridgeCall, method: string, storageName: string, value: T): Promise<T> {
  const stored = await call.storage.get(plainKey(storageName));
  if (stored.length > 0) {
    throw bridgeFailure(
      method,
      `the stored ${storageName} (0x${bytesToHex(stored)}) is not read by xchain (no federation change)`,
    );
  }
  return value;
}

/** A local-only getter of the active federation, which is the genesis one while `newFederation` is unset. */
function active(
  name: string,
  outputs: string[],
  gas: number,
  run: BridgeMethod["run"],
  inputs: string[] = [],
): BridgeMethod {
  return {
    fn: abiFunction(name, inputs, outputs),
    gas: price(gas),
    localOnly: true,
    acceptsStaticCall: true,
    run: async (args, call) => {
      await absent(call, name, "newFederation", undefined);
      return run(args, call);
    },
  };
}

/** A local-only getter of a federation that does not exist: rskj's answer for none. */
function none(
  name: string,
  storageName: string,
  output: string,
  gas: number,
  value: bigint | string | Uint8Array,
  inputs: string[] = [],
): BridgeMethod {
  return {
    fn: abiFunction(name, inputs, [output]),
    gas: price(gas),
    localOnly: true,
    acceptsStaticCall: true,
    run: (_args, call) => absent(call, name, storageName, value),
  };
}

/** getFederatorPublicKeyOfType(index, type): a member's key of that type (all three are the same key). */
function memberKey(args: unknown[], call: BridgeCall): Uint8Array {
  const [index, type] = args as [bigint, string];
  const members = call.federation.members;
  if (!KEY_TYPES.has(type)) throw bridgeFailure("getFederatorPublicKeyOfType", `unknown key type "${type}"`);
  if (index < 0n || index >= BigInt(members.length)) {
    throw bridgeFailure("getFederatorPublicKeyOfType", `index ${index} out of range (0..${members.length - 1})`);
  }
  return (members[Number(index)] as {btcPublicKey: Uint8Array}).btcPublicKey;
}

export const federationGetters: readonly BridgeMethod[] = [
  active("getFederationAddress", ["string"], 11_000, (_a, call) => call.federation.address),
  active("getFederationSize", ["int256"], 10_000, (_a, call) => BigInt(call.federation.members.length)),
  active("getFederationThreshold", ["int256"], 11_000, (_a, call) => BigInt(call.federation.threshold)),
  // Seconds since RSKIP-419 (milliseconds before it).
  active("getFederationCreationTime", ["int256"], 10_000, (_a, call) => call.federation.creationTimeMs / 1000n),
  active("getFederationCreationBlockNumber", ["int256"], 10_000, (_a, call) => call.federation.creationBlockNumber),
  active("getFederatorPublicKeyOfType", ["bytes"], 10_000, memberKey, ["int256", "string"]),
  {
    ...active("getActiveFederationCreationBlockHeight", ["uint256"], 3_000, (_a, call) =>
      call.storage.activeFederationCreationBlockHeight(),
    ),
    localOnly: false,
  },
  {
    ...active("getActivePowpegRedeemScript", ["bytes"], 30_000, (_a, call) => call.federation.redeemScript),
    localOnly: false,
  },
  none("getRetiringFederationAddress", "oldFederation", "string", 3_000, ""),
  none("getRetiringFederationSize", "oldFederation", "int256", 3_000, NONE),
  none("getRetiringFederationThreshold", "oldFederation", "int256", 3_000, NONE),
  none("getRetiringFederationCreationTime", "oldFederation", "int256", 3_000, NONE),
  none("getRetiringFederationCreationBlockNumber", "oldFederation", "int256", 3_000, NONE),
  none("getRetiringFederatorPublicKeyOfType", "oldFederation", "bytes", 3_000, EMPTY, ["int256", "string"]),
  none("getPendingFederationHash", "pendingFederation", "bytes", 3_000, EMPTY),
  none("getPendingFederationSize", "pendingFederation", "int256", 3_000, NONE),
  none("getPendingFederatorPublicKeyOfType", "pendingFederation", "bytes", 3_000, EMPTY, ["int256", "string"]),
  none("getProposedFederationAddress", "proposedFederation", "string", 3_000, ""),
  none("getProposedFederationSize", "proposedFederation", "int256", 3_000, NONE),
  none("getProposedFederationCreationTime", "proposedFederation", "int256", 3_000, NONE),
  none("getProposedFederationCreationBlockNumber", "proposedFederation", "int256", 3_000, NONE),
  none("getProposedFederatorPublicKeyOfType", "proposedFederation", "bytes", 3_000, EMPTY, ["int256", "string"]),
];

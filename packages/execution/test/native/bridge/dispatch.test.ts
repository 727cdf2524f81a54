/**
 * The Bridge's dispatch rules (docs/protocol/native-contracts.md §10.1): local-only getters, RSKIP-417
 * call types, failures, free transactions, void answers, votes' codes and increaseLockingCap.
 */
import {createRequire} from "node:module";
import type {MerkleStateManager} from "@ethereumjs/statemanager";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {Interface} from "ethers";
import {beforeEach, describe, expect, it} from "vitest";
import {NativeContractFailure, NativeContractFailureCode} from "../../../src/errors.ts";
import {bridgeContract} from "../../../src/native/bridge/contract.ts";
import {base58Address} from "../../../src/native/bridge/federation.ts";
import {BridgeKey} from "../../../src/native/bridge/storageKeys.ts";
import type {NativeCallContext} from "../../../src/native/dispatch/types.ts";
import {bridgeContext, bridgeState, bridgeStorageOf} from "./bridgeContext.ts";

const require = createRequire(import.meta.url);
const abi = new Interface(require("@rsksmart/rsk-precompiled-abis").bridge.abi);
const calldata = (name: string, args: unknown[] = []) => hexToBytes(abi.encodeFunctionData(name, args).slice(2));

// Authorizers whose private keys are public (keccak256 of rskj's generator strings).
const LOCKING_CAP_AUTHORIZER = hexToBytes("6913bd4715eff3b25501f3212f15df38296d1f21");
const WHITELIST_AUTHORIZER = hexToBytes("87d2a0f33744929da08b65fd62b627ea52b25f8e");
/** A valid regtest P2PKH address. */
const BTC_ADDRESS = base58Address(111, new Uint8Array(20).fill(1));
const MINED = {localCall: false, transactionPublicKey: new Uint8Array(64).fill(1)} as const;

let state: MerkleStateManager;
beforeEach(async () => {
  state = await bridgeState();
});

async function failure(data: Uint8Array, context: NativeCallContext): Promise<NativeContractFailure> {
  const error = await Promise.resolve(bridgeContract.run(data, context)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NativeContractFailure);
  return error as NativeContractFailure;
}

const decoded = async (name: string, data: Uint8Array, context: NativeCallContext) => [
  ...abi.decodeFunctionResult(name, `0x${bytesToHex((await bridgeContract.run(data, context)).output)}`),
];

describe("local-only getters", () => {
  it("answer in eth_call, also through a contract, and fail in a mined transaction or a mined internal call", async () => {
    const data = calldata("getFederationAddress");
    expect(await decoded("getFederationAddress", data, bridgeContext(state, {callType: "CALL", depth: 1}))).toEqual([
      "2N5muMepJizJE1gR7FbHJU6CD18V3BpNF9p",
    ]);
    expect((await failure(data, bridgeContext(state, MINED))).code).toBe(NativeContractFailureCode.LOCAL_CALL_ONLY);
    const internal = bridgeContext(state, {...MINED, callType: "CALL", depth: 1});
    expect((await failure(data, internal)).code).toBe(NativeContractFailureCode.LOCAL_CALL_ONLY);
  });

  it("the getters without the mark answer in a mined transaction", async () => {
    expect(
      await decoded("getQueuedPegoutsCount", calldata("getQueuedPegoutsCount"), bridgeContext(state, MINED)),
    ).toEqual([0n]);
  });
});

describe("call types (RSKIP-417)", () => {
  it("DELEGATECALL and CALLCODE always fail; STATICCALL only for the C/S methods", async () => {
    const getter = calldata("getFederationAddress");
    for (const callType of ["DELEGATECALL", "CALLCODE"] as const) {
      const e = await failure(getter, bridgeContext(state, {callType, depth: 1}));
      expect(e.code).toBe(NativeContractFailureCode.CALLER_REFUSED);
    }
    expect(
      await decoded("getFederationAddress", getter, bridgeContext(state, {callType: "STATICCALL", depth: 1})),
    ).toHaveLength(1);
    const cap = calldata("increaseLockingCap", [1]);
    const e = await failure(cap, bridgeContext(state, {callType: "STATICCALL", depth: 1, isStatic: true}));
    expect(e.code).toBe(NativeContractFailureCode.CALLER_REFUSED);
  });
});

describe("unparseable input", () => {
  it.each(["deadbeef", "01", "6923fa", "248a982d"])("0x%s fails", async (hex) => {
    // 248a982d is isBtcTxHashAlreadyProcessed without its argument: it does not decode.
    const e = await failure(hexToBytes(hex), bridgeContext(state));
    expect(e.code).toBe(NativeContractFailureCode.UNKNOWN_METHOD);
  });
});

describe("free transactions", () => {
  it("a mined transaction of a genesis federator or an authorizer costs no gas; a call or a contract's does", () => {
    const data = calldata("getFeePerKb");
    const federator = hexToBytes("6b045752f4d650a510a353bbf7e52988331e7f5b");
    expect(bridgeContract.gas(data, bridgeContext(state, {...MINED, sender: federator}))).toBe(0n);
    expect(bridgeContract.gas(data, bridgeContext(state, {...MINED, sender: WHITELIST_AUTHORIZER}))).toBe(0n);
    // The locking cap's authorizer is not among rskj's free senders.
    expect(bridgeContract.gas(data, bridgeContext(state, {...MINED, sender: LOCKING_CAP_AUTHORIZER}))).toBe(2_008n);
    expect(bridgeContract.gas(data, bridgeContext(state, {sender: federator}))).toBe(2_008n);
    const internal = {...MINED, sender: federator, callType: "CALL" as const, depth: 1};
    expect(bridgeContract.gas(data, bridgeContext(state, internal))).toBe(2_008n);
  });
});

describe("votes", () => {
  it.each([
    ["createFederation", []],
    ["addFederatorPublicKeyMultikey", ["0x01", "0x02", "0x03"]],
    ["commitFederation", ["0x01"]],
    ["rollbackFederation", []],
    ["addOneOffLockWhitelistAddress", [BTC_ADDRESS, 1000]],
    ["addUnlimitedLockWhitelistAddress", [BTC_ADDRESS]],
    ["removeLockWhitelistAddress", [BTC_ADDRESS]],
    ["setLockWhitelistDisableBlockDelay", [10]],
    ["voteFeePerKbChange", [200_000]],
  ] as const)("%s answers -10 to an unauthorized sender", async (name, args) => {
    expect(await decoded(name, calldata(name, [...args]), bridgeContext(state, MINED))).toEqual([-10n]);
  });

  it("a whitelist addition with an address of another network answers -2 before the authorizer check", async () => {
    const mainnetAddress = "1BoatSLRHtKNngkdXEeobR76b53LETtpyT";
    const data = calldata("addUnlimitedLockWhitelistAddress", [mainnetAddress]);
    expect(await decoded("addUnlimitedLockWhitelistAddress", data, bridgeContext(state, MINED))).toEqual([-2n]);
  });

  it("an authorized federation-change vote fails: xchain does not change federations (tier C)", async () => {
    // rskj's federation-change authorizer auth-a.
    const sender = hexToBytes("5252403bca6ac3c104abdd320a736fa38282045d");
    const e = await failure(calldata("createFederation"), bridgeContext(state, {...MINED, sender}));
    expect(e.message).toContain("not implemented");
  });
});

describe("increaseLockingCap", () => {
  const storage = () => bridgeStorageOf(state);
  const authorized = {...MINED, sender: LOCKING_CAP_AUTHORIZER};

  it("false for anyone else, nothing stored", async () => {
    expect(
      await decoded(
        "increaseLockingCap",
        calldata("increaseLockingCap", [150_000_000_000n]),
        bridgeContext(state, MINED),
      ),
    ).toEqual([false]);
    expect((await storage().get(BridgeKey.lockingCap)).length).toBe(0);
  });

  it("the authorizer raises it up to twice the cap; the cap read is stored either way", async () => {
    const over = calldata("increaseLockingCap", [200_000_000_001n]);
    expect(await decoded("increaseLockingCap", over, bridgeContext(state, authorized))).toEqual([false]);
    expect(await storage().lockingCap()).toEqual({value: 100_000_000_000n, stored: true});
    const raise = calldata("increaseLockingCap", [200_000_000_000n]);
    expect(await decoded("increaseLockingCap", raise, bridgeContext(state, authorized))).toEqual([true]);
    expect(await decoded("getLockingCap", calldata("getLockingCap"), bridgeContext(state))).toEqual([200_000_000_000n]);
  });

  it("fails for a cap that is not positive", async () => {
    await failure(calldata("increaseLockingCap", [0]), bridgeContext(state, authorized));
  });
});

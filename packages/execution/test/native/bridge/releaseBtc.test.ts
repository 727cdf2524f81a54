/** releaseBtc: the queue, its events and the refund (docs/protocol/native-contracts.md §10.7). */
import {createRequire} from "node:module";
import type {MerkleStateManager} from "@ethereumjs/statemanager";
import {BRIDGE_ADDRESS, BRIDGE_GENESIS_BALANCE} from "@xchain/chainspec";
import {bytesToHex, hash160, hexToBytes, keccak256, publicKeyForms, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {getAddress, Interface} from "ethers";
import {beforeEach, describe, expect, it} from "vitest";
import {NativeContractFailure} from "../../../src/errors.ts";
import {bridgeContract} from "../../../src/native/bridge/contract.ts";
import {base58Address} from "../../../src/native/bridge/federation.ts";
import type {NativeCallContext} from "../../../src/native/dispatch/types.ts";
import {balanceOf, bridgeContext, bridgeState, SENDER} from "./bridgeContext.ts";

const require = createRequire(import.meta.url);
const abi = new Interface(require("@rsksmart/rsk-precompiled-abis").bridge.abi);
const calldata = (name: string, args: unknown[] = []) => hexToBytes(abi.encodeFunctionData(name, args).slice(2));

const PUBLIC_KEY = publicKeyOf(keccak256(utf8ToBytes("cow")));
const TX_HASH = hexToBytes("ab".repeat(32));
const RBTC = 10n ** 18n;
/** The regtest P2PKH address of the compressed signing key. */
const DESTINATION = base58Address(111, hash160(publicKeyForms(PUBLIC_KEY).compressed));

let state: MerkleStateManager;
beforeEach(async () => {
  state = await bridgeState();
});

/** A mined transaction of `value` wei straight to the Bridge. */
const mined = (value: bigint, more: Partial<NativeCallContext> = {}) =>
  bridgeContext(state, {localCall: false, value, transactionHash: TX_HASH, transactionPublicKey: PUBLIC_KEY, ...more});

const events = (logs: readonly {topics: Uint8Array[]; data: Uint8Array}[] | undefined) =>
  (logs ?? []).map((log) => {
    const parsed = abi.parseLog({
      topics: log.topics.map((t) => `0x${bytesToHex(t)}`),
      data: `0x${bytesToHex(log.data)}`,
    });
    return [parsed?.name, ...(parsed?.args ?? [])];
  });

const sender = getAddress(`0x${bytesToHex(SENDER)}`);

describe("releaseBtc", () => {
  it("queues a request for the signer's Bitcoin address and emits release_request_received in wei", async () => {
    const result = await bridgeContract.run(calldata("releaseBtc"), mined(RBTC / 100n));
    expect(result.output.length).toBe(0);
    expect(events(result.logs)).toEqual([["release_request_received", sender, DESTINATION, RBTC / 100n]]);
    expect(result.logs?.[0]?.address).toEqual(BRIDGE_ADDRESS);
    const count = await bridgeContract.run(calldata("getQueuedPegoutsCount"), bridgeContext(state));
    expect(abi.decodeFunctionResult("getQueuedPegoutsCount", `0x${bytesToHex(count.output)}`)[0]).toBe(1n);
  });

  it("is what empty input runs (a plain transfer to the Bridge)", async () => {
    const result = await bridgeContract.run(new Uint8Array(0), mined(RBTC / 100n));
    expect(events(result.logs)[0]?.[0]).toBe("release_request_received");
  });

  it("the queued request shows in getStateForDebugging with its hash, and in the fee estimate", async () => {
    await bridgeContract.run(new Uint8Array(0), mined(RBTC / 100n));
    const state0 = await bridgeContract.run(calldata("getStateForDebugging"), bridgeContext(state));
    const [encoded] = abi.decodeFunctionResult("getStateForDebugging", `0x${bytesToHex(state0.output)}`);
    const h160 = bytesToHex(hash160(publicKeyForms(PUBLIC_KEY).compressed));
    // 1,000,000 sat is 0x0f4240.
    expect(encoded).toContain(`${h160}830f4240a0${bytesToHex(TX_HASH)}`);
    const fees = await bridgeContract.run(calldata("getEstimatedFeesForNextPegOutEvent"), bridgeContext(state));
    // Two inputs and three outputs: 654 + 32 bytes at 100,000 sat/kb.
    expect(abi.decodeFunctionResult("getEstimatedFeesForNextPegOutEvent", `0x${bytesToHex(fees.output)}`)[0]).toBe(
      68_600n,
    );
  });

  it("refunds a request under the 250,000-sat minimum in full, in wei, and rejects it as LOW_AMOUNT", async () => {
    const value = 2_499_999_999_999_999n; // 249,999.99… sat
    const result = await bridgeContract.run(new Uint8Array(0), mined(value));
    expect(events(result.logs)).toEqual([["release_request_rejected", sender, value, 1n]]);
    expect(await balanceOf(state, SENDER)).toBe(value);
    expect(await balanceOf(state, BRIDGE_ADDRESS)).toBe(BRIDGE_GENESIS_BALANCE - value);
    const count = await bridgeContract.run(calldata("getQueuedPegoutsCount"), bridgeContext(state));
    expect(abi.decodeFunctionResult("getQueuedPegoutsCount", `0x${bytesToHex(count.output)}`)[0]).toBe(0n);
  });

  it("the minimum is inclusive: exactly 250,000 sat is queued", async () => {
    const result = await bridgeContract.run(new Uint8Array(0), mined(250_000n * 10n ** 10n));
    expect(events(result.logs)[0]?.[0]).toBe("release_request_received");
  });

  it("rejects a contract's request as CALLER_CONTRACT and keeps its value", async () => {
    const result = await bridgeContract.run(new Uint8Array(0), mined(RBTC, {callType: "CALL", depth: 1}));
    expect(events(result.logs)).toEqual([["release_request_rejected", sender, RBTC, 2n]]);
    expect(await balanceOf(state, SENDER)).toBe(0n);
  });

  it("fails in eth_call, which has no signature to name a Bitcoin key", async () => {
    const error = await Promise.resolve(
      bridgeContract.run(new Uint8Array(0), bridgeContext(state, {value: RBTC})),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NativeContractFailure);
  });

  it("fails by STATICCALL, DELEGATECALL and CALLCODE", async () => {
    for (const callType of ["STATICCALL", "DELEGATECALL", "CALLCODE"] as const) {
      await expect(
        Promise.resolve(bridgeContract.run(new Uint8Array(0), mined(0n, {callType, depth: 1}))),
      ).rejects.toBeInstanceOf(NativeContractFailure);
    }
  });
});

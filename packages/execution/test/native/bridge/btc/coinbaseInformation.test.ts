/**
 * `hasBtcBlockCoinbaseTransactionInformation` (RSKIP-143, enabled on regtest; docs/protocol/native-contracts.md
 * §10.2): rskj answers whether `registerBtcCoinbaseTransaction` stored something for the block, `false` on a
 * fresh node, at 5,000 gas + 2 per byte, to a call or a mined transaction, without opening the light client.
 */
import {createRequire} from "node:module";
import type {MerkleStateManager} from "@ethereumjs/statemanager";
import {Address} from "@ethereumjs/util";
import {BRIDGE_ADDRESS} from "@xchain/chainspec";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {Interface, id} from "ethers";
import {beforeEach, describe, expect, it} from "vitest";
import {NativeContractFailure} from "../../../../src/errors.ts";
import {bridgeContract} from "../../../../src/native/bridge/contract.ts";
import {coinbaseInformationKey} from "../../../../src/native/bridge/storageKeys.ts";
import {bridgeContext, bridgeState, bridgeStorageOf} from "../bridgeContext.ts";

const require = createRequire(import.meta.url);
const abi = new Interface(require("@rsksmart/rsk-precompiled-abis").bridge.abi);
const BLOCK_HASH = `0x${"0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"}`;
const data = hexToBytes(abi.encodeFunctionData("hasBtcBlockCoinbaseTransactionInformation", [BLOCK_HASH]).slice(2));
const MINED = {localCall: false, transactionPublicKey: new Uint8Array(64).fill(1)} as const;

let state: MerkleStateManager;
beforeEach(async () => {
  state = await bridgeState();
});

const answer = async (context = bridgeContext(state)) =>
  abi.decodeFunctionResult(
    "hasBtcBlockCoinbaseTransactionInformation",
    `0x${bytesToHex((await bridgeContract.run(data, context)).output)}`,
  )[0];

describe("hasBtcBlockCoinbaseTransactionInformation", () => {
  it("answers false on a fresh node, in a call, a mined transaction and a STATICCALL, for 5,000 + 2 per byte", async () => {
    expect(await bridgeContract.gas(data, bridgeContext(state, MINED))).toBe(5_000n + 2n * BigInt(data.length));
    expect(await answer()).toBe(false);
    expect(await answer(bridgeContext(state, {callType: "STATICCALL", depth: 1, isStatic: true}))).toBe(false);
    expect(await answer(bridgeContext(state, MINED))).toBe(false);
    // rskj's method does not open the Bitcoin block store: a mined call stores nothing, not even its genesis.
    expect(await state.dumpStorage(new Address(BRIDGE_ADDRESS))).toEqual({});
  });

  it("the key is keccak-256 of coinbaseInformation-<the hash as given>, which a stored entry fails on", async () => {
    expect(`0x${bytesToHex(coinbaseInformationKey(hexToBytes(BLOCK_HASH)))}`).toBe(
      id(`coinbaseInformation-${BLOCK_HASH.slice(2)}`),
    );
    const storage = bridgeStorageOf(state);
    storage.put(coinbaseInformationKey(hexToBytes(BLOCK_HASH)), Uint8Array.of(0xc1, 0x80));
    await storage.save();
    await expect(bridgeContract.run(data, bridgeContext(state))).rejects.toBeInstanceOf(NativeContractFailure);
  });
});

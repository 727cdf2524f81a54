/**
 * Every tier-A getter of a fresh regtest Bridge (docs/protocol/native-contracts.md §10.3), called
 * through the contract with calldata as a client sends it, answers decoded with the ABI of
 * @rsksmart/rsk-precompiled-abis.
 */
import {createRequire} from "node:module";
import type {MerkleStateManager} from "@ethereumjs/statemanager";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {Interface} from "ethers";
import {beforeEach, describe, expect, it} from "vitest";
import {bridgeContract, UNPARSEABLE_INPUT_GAS} from "../../../src/native/bridge/contract.ts";
import {BRIDGE_METHODS} from "../../../src/native/bridge/methods.ts";
import {bridgeContext, bridgeState} from "./bridgeContext.ts";

const require = createRequire(import.meta.url);
const abi = new Interface(require("@rsksmart/rsk-precompiled-abis").bridge.abi);

let state: MerkleStateManager;
beforeEach(async () => {
  state = await bridgeState();
});

async function call(name: string, args: unknown[] = []): Promise<unknown[]> {
  const data = hexToBytes(abi.encodeFunctionData(name, args).slice(2));
  const result = await bridgeContract.run(data, bridgeContext(state));
  return [...abi.decodeFunctionResult(name, `0x${bytesToHex(result.output)}`)];
}

const GENESIS_HEADER =
  "0x0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4adae5494dffff7f2002000000";
const TXID = "aa".repeat(32);

describe("a fresh regtest Bridge's getters", () => {
  it.each([
    ["getFederationAddress", [], "2N5muMepJizJE1gR7FbHJU6CD18V3BpNF9p"],
    ["getFederationSize", [], 3n],
    ["getFederationThreshold", [], 2n],
    ["getFederationCreationTime", [], 1451606400n],
    ["getFederationCreationBlockNumber", [], 1n],
    ["getActiveFederationCreationBlockHeight", [], 0n],
    ["getRetiringFederationAddress", [], ""],
    ["getRetiringFederationSize", [], -1n],
    ["getRetiringFederationThreshold", [], -1n],
    ["getRetiringFederationCreationTime", [], -1n],
    ["getRetiringFederationCreationBlockNumber", [], -1n],
    ["getRetiringFederatorPublicKeyOfType", [0, "btc"], "0x"],
    ["getPendingFederationHash", [], "0x"],
    ["getPendingFederationSize", [], -1n],
    ["getPendingFederatorPublicKeyOfType", [0, "btc"], "0x"],
    ["getProposedFederationAddress", [], ""],
    ["getProposedFederationSize", [], -1n],
    ["getProposedFederationCreationTime", [], -1n],
    ["getProposedFederationCreationBlockNumber", [], -1n],
    ["getProposedFederatorPublicKeyOfType", [0, "btc"], "0x"],
    ["getMinimumLockTxValue", [], 500000n],
    ["getLockingCap", [], 100000000000n],
    ["getFeePerKb", [], 100000n],
    ["getBtcBlockchainBestChainHeight", [], 0n],
    ["getBtcBlockchainInitialBlockHeight", [], 0n],
    ["getBtcBlockchainBlockHashAtDepth", [0], "0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"],
    ["getBtcBlockchainBestBlockHeader", [], GENESIS_HEADER],
    ["getBtcBlockchainBlockHeaderByHeight", [0], GENESIS_HEADER],
    [
      "getBtcBlockchainBlockHeaderByHash",
      ["0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"],
      GENESIS_HEADER,
    ],
    ["getBtcBlockchainBlockHeaderByHash", [`0x${"11".repeat(32)}`], "0x"],
    // Above the best chain: rskj's Bridge catches the store's exception and answers empty bytes.
    ["getBtcBlockchainBlockHeaderByHeight", [1], "0x"],
    [
      "getBtcBlockchainParentBlockHeaderByHash",
      ["0x0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"],
      "0x",
    ],
    ["isBtcTxHashAlreadyProcessed", [TXID], false],
    ["getBtcTxHashProcessedHeight", [TXID], -1n],
    ["getLockWhitelistSize", [], 0n],
    ["getLockWhitelistAddress", [0], ""],
    ["getLockWhitelistEntryByAddress", ["mzFVQ8bYCNtxsqLC2DqrdP5ZLbfXZzyrFG"], -1n],
    ["getQueuedPegoutsCount", [], 0n],
    ["getNextPegoutCreationBlockNumber", [], 0n],
    ["getEstimatedFeesForNextPegOutEvent", [], 65400n],
    ["getStateForDebugging", [], "0xcb8081c081c081c081c08180"],
    ["getStateForBtcReleaseClient", [], "0xc1c0"],
    ["getStateForSvpClient", [], "0xc1c0"],
  ] as const)("%s(%j) = %s", async (name, args, expected) => {
    expect(await call(name, [...args])).toEqual([expected]);
  });

  it("getFederatorPublicKeyOfType: the members' keys sorted, the same for btc, rsk and mst", async () => {
    for (const type of ["btc", "rsk", "mst"]) {
      expect(await call("getFederatorPublicKeyOfType", [0, type])).toEqual([
        "0x02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1",
      ]);
      expect(await call("getFederatorPublicKeyOfType", [2, type])).toEqual([
        "0x03c5946b3fbae03a654237da863c9ed534e0878657175b132b8ca630f245df04db",
      ]);
    }
  });

  it("getActivePowpegRedeemScript: the 105-byte 2-of-3 multisig", async () => {
    const [script] = (await call("getActivePowpegRedeemScript")) as [string];
    expect(script).toMatch(/^0x522102cd53[0-9a-f]+53ae$/);
    expect(script.length).toBe(2 + 2 * 105);
  });

  it("an empty string answers in rskj's 96-byte encoding", async () => {
    const data = hexToBytes(abi.encodeFunctionData("getRetiringFederationAddress", []).slice(2));
    const {output} = await bridgeContract.run(data, bridgeContext(state));
    expect(bytesToHex(output)).toBe(`${"00".repeat(31)}20${"00".repeat(64)}`);
  });

  it.each([
    ["getFederatorPublicKeyOfType", [3, "btc"]],
    ["getFederatorPublicKeyOfType", [0, "xyz"]],
    ["isBtcTxHashAlreadyProcessed", ["not-a-hash"]],
    ["getBtcBlockchainBlockHashAtDepth", [1]],
    ["getBtcBlockchainBlockHashAtDepth", [-1]],
  ] as const)("%s(%j) fails", async (name, args) => {
    await expect(call(name, [...args])).rejects.toThrow(/Bridge\./);
  });
});

describe("method table", () => {
  it("every selector is the abis package's", () => {
    for (const method of BRIDGE_METHODS) {
      const fragment = abi.getFunction(method.fn.name);
      expect(fragment, method.fn.name).not.toBeNull();
      expect(bytesToHex(method.fn.selector), method.fn.name).toBe(fragment?.selector.slice(2));
    }
  });

  it("gas: the method's price plus 2 per byte; unparseable input 23,000", () => {
    const context = bridgeContext(state);
    const data = hexToBytes(abi.encodeFunctionData("getFederationAddress", []).slice(2));
    expect(bridgeContract.gas(data, context)).toBe(11_000n + 8n);
    const processed = hexToBytes(abi.encodeFunctionData("isBtcTxHashAlreadyProcessed", [TXID]).slice(2));
    expect(bridgeContract.gas(processed, context)).toBe(23_000n + 2n * BigInt(processed.length));
    for (const bad of ["deadbeef", "01", "6923fa"]) {
      expect(bridgeContract.gas(hexToBytes(bad), context)).toBe(UNPARSEABLE_INPUT_GAS);
    }
    // Empty input is releaseBtc: its price and no bytes.
    expect(bridgeContract.gas(new Uint8Array(0), context)).toBe(23_000n);
  });
});

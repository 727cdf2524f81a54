// End-to-end: the Bridge (docs/protocol/native-contracts.md §10) on a real regtest node, as the
// PowPeg app and Rootstock's integration tests reach it: getters by eth_call from ethers and from a
// Solidity contract, answers decoded with @rsksmart/rsk-precompiled-abis; local-only getters failing
// in mined transactions; releaseBtc by a plain transfer with its event, queue and storage;
// eth_bridgeState; and a node given its own genesis federation.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {
  Contract,
  ContractFactory,
  getAddress,
  id,
  JsonRpcProvider,
  type Log,
  type LogDescription,
  parseEther,
  SigningKey,
  Wallet,
} from "ethers";
import {beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {
  bridgeInterface as abi,
  BRIDGE,
  BRIDGE_ABI,
  BTC_REGTEST_GENESIS_HASH,
  btcAddress,
  plainKey,
  useRegtestNode,
} from "../support/nativeNode.ts";
import {startNode} from "../support/xchainProcess.ts";

const CALLER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract BridgeCaller {
  address constant BRIDGE = 0x0000000000000000000000000000000001000006;
  bool public lastOk;
  function call(bytes calldata data) external returns (bool ok, bytes memory answer) {
    (ok, answer) = BRIDGE.call(data);
  }
  function staticCall(bytes calldata data) external view returns (bool ok, bytes memory answer) {
    (ok, answer) = BRIDGE.staticcall(data);
  }
  function delegateCall(bytes calldata data) external returns (bool ok) {
    (ok, ) = BRIDGE.delegatecall(data);
  }
  function callAndKeep(bytes calldata data) external { (lastOk, ) = BRIDGE.call(data); }
}`;

const session = useRegtestNode();
let provider: JsonRpcProvider;
let cow: Wallet;
let bridgeContract: Contract;
let caller: Contract;

beforeAll(async () => {
  ({provider, cow} = session);
  bridgeContract = new Contract(BRIDGE, BRIDGE_ABI, provider);
  const compiled = compileSolidity(CALLER_SOURCE).BridgeCaller!;
  const factory = new ContractFactory(compiled.abi as never, bytesToPrefixedHex(compiled.bytecode), cow);
  caller = (await factory.deploy({type: 0})) as Contract;
  await caller.waitForDeployment();
});

/** A fresh regtest Bridge's answers (docs/protocol/native-contracts.md §10.3). */
const FRESH: [string, unknown[], unknown][] = [
  // What the PowPeg app's backend asks.
  ["getFederationAddress", [], "2N5muMepJizJE1gR7FbHJU6CD18V3BpNF9p"],
  ["getMinimumLockTxValue", [], 500_000n],
  ["getLockingCap", [], 100_000_000_000n],
  ["isBtcTxHashAlreadyProcessed", ["ab".repeat(32)], false],
  ["getStateForDebugging", [], "0xcb8081c081c081c081c08180"],
  // Rootstock's integration tests (bridge-calls.js) and others.
  ["getFederationSize", [], 3n],
  ["getFederationThreshold", [], 2n],
  ["getFederationCreationTime", [], 1_451_606_400n],
  ["getFederationCreationBlockNumber", [], 1n],
  ["getFeePerKb", [], 100_000n],
  ["getPendingFederationSize", [], -1n],
  ["getRetiringFederationSize", [], -1n],
  ["getRetiringFederationThreshold", [], -1n],
  ["getRetiringFederationCreationTime", [], -1n],
  ["getRetiringFederationCreationBlockNumber", [], -1n],
  ["getRetiringFederationAddress", [], ""],
  ["getFederatorPublicKeyOfType", [0, "btc"], "0x02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1"],
  ["getBtcBlockchainBestChainHeight", [], 0n],
  ["getBtcBlockchainBlockHashAtDepth", [0], BTC_REGTEST_GENESIS_HASH],
  ["getBtcTxHashProcessedHeight", ["ab".repeat(32)], -1n],
  ["getLockWhitelistSize", [], 0n],
  ["getQueuedPegoutsCount", [], 0n],
  ["getStateForBtcReleaseClient", [], "0xc1c0"],
];

describe("the Bridge's getters on a fresh regtest node", () => {
  it.each(FRESH)("%s by eth_call from ethers", async (name, args, expected) => {
    expect(await bridgeContract.getFunction(name).staticCall(...args)).toEqual(expected);
  });

  it.each(FRESH)("%s by eth_call through a Solidity contract (CALL and STATICCALL)", async (name, args, expected) => {
    const data = abi.encodeFunctionData(name, args);
    for (const method of ["call", "staticCall"]) {
      const [ok, answer] = await caller.getFunction(method).staticCall(data);
      expect(ok).toBe(true);
      expect(abi.decodeFunctionResult(name, answer)[0]).toEqual(expected);
    }
  });

  it("a DELEGATECALL to the Bridge fails (RSKIP-417)", async () => {
    expect(await caller.getFunction("delegateCall").staticCall(abi.encodeFunctionData("getFederationSize"))).toBe(
      false,
    );
  });
});

describe("the Bridge in mined transactions", () => {
  it("a local-only getter fails in a mined transaction: status 1 as rskj, gas = intrinsic + its price, no output", async () => {
    const data = abi.encodeFunctionData("getFederationAddress");
    const receipt = await (await cow.sendTransaction({to: BRIDGE, data, type: 0, gasLimit: 100_000})).wait();
    expect(receipt?.status).toBe(1);
    // 21,000 + 4 non-zero calldata bytes at 16, then getFederationAddress's 11,000 + 2 per byte.
    expect(receipt?.gasUsed).toBe(21_000n + 4n * 16n + 11_000n + 8n);
    expect(receipt?.logs).toEqual([]);
  });

  it("and through a contract in a mined transaction: the Bridge's CALL returns 0", async () => {
    const keep = caller.connect(cow).getFunction("callAndKeep");
    await (await keep(abi.encodeFunctionData("getFederationAddress"), {type: 0})).wait();
    expect(await caller.getFunction("lastOk")()).toBe(false);
    await (await keep(abi.encodeFunctionData("getQueuedPegoutsCount"), {type: 0})).wait();
    expect(await caller.getFunction("lastOk")()).toBe(true);
  });

  it("a transaction of an authorizer (regtest's keys are public) is free: intrinsic gas only", async () => {
    // The lock whitelist's authorizer: rskj's key keccak256("auth-lock-whitelist").
    const authorizer = new Wallet(id("auth-lock-whitelist"), provider);
    expect(authorizer.address.toLowerCase()).toBe("0x87d2a0f33744929da08b65fd62b627ea52b25f8e");
    await (await cow.sendTransaction({to: authorizer.address, value: parseEther("1"), type: 0})).wait();
    const data = abi.encodeFunctionData("getQueuedPegoutsCount");
    const receipt = await (await authorizer.sendTransaction({to: BRIDGE, data, type: 0, gasLimit: 100_000})).wait();
    expect(receipt?.gasUsed).toBe(21_000n + 4n * 16n);
    const paid = await (await cow.sendTransaction({to: BRIDGE, data, type: 0, gasLimit: 100_000})).wait();
    expect(paid?.gasUsed).toBe(21_000n + 4n * 16n + 3_000n + 8n);
  });

  it("unparseable input costs 23,000 and still reports status 1: rskj PR #3504's 0xdeadbeef, 44,064 gas", async () => {
    const receipt = await (
      await cow.sendTransaction({to: BRIDGE, data: "0xdeadbeef", type: 0, gasLimit: 200_000})
    ).wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.gasUsed).toBe(44_064n);
  });

  it("a mined light-client getter stores Bitcoin's genesis, as rskj's block store does on first use", async () => {
    expect(
      await rpc(session.node.httpUrl, "xchain_getStorageBytesAt", [BRIDGE, plainKey("blockStoreChainHead"), "latest"]),
    ).toBe("0x0");
    const data = abi.encodeFunctionData("getBtcBlockchainBestChainHeight");
    await (await cow.sendTransaction({to: BRIDGE, data, type: 0, gasLimit: 100_000})).wait();
    const head = await rpc<string>(session.node.httpUrl, "xchain_getStorageBytesAt", [
      BRIDGE,
      plainKey("blockStoreChainHead"),
      "latest",
    ]);
    // StoredBlock V2: 32-byte chain work 2, height 0, the 80-byte header.
    expect(head).toMatch(/^0x0{63}2(00){4}01(00){3}(00){32}3ba3edfd/);
    expect((head.length - 2) / 2).toBe(116);
  });
});

describe("releaseBtc", () => {
  it("a plain transfer of 0.01 RBTC is queued for the sender's Bitcoin address, with release_request_received", async () => {
    const value = parseEther("0.01");
    // No gas limit: ethers estimates it, a call in which releaseBtc has no signature and fails, status 1 as rskj.
    const receipt = await (await cow.sendTransaction({to: BRIDGE, value, type: 0})).wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.gasUsed).toBe(21_000n + 23_000n);
    const events = receipt!.logs.map((log) => abi.parseLog(log)!);
    expect(events.map((e) => [e.name, ...e.args])).toEqual([
      ["release_request_received", cow.address, btcAddress(cow.signingKey), value],
    ]);
    expect(receipt!.logs[0]!.address).toBe(getAddress(BRIDGE));
    expect(await bridgeContract.getFunction("getQueuedPegoutsCount")()).toBe(1n);
    // Stored as rskj stores it: [hash160, satoshis, rskTxHash] in the with-hash queue, an empty legacy queue.
    const queue = await rpc<string>(session.node.httpUrl, "xchain_getStorageBytesAt", [
      BRIDGE,
      plainKey("releaseRequestQueueWithTxHash"),
      "latest",
    ]);
    expect(queue).toContain(`830f4240a0${receipt!.hash.slice(2)}`);
    expect(
      await rpc(session.node.httpUrl, "xchain_getStorageBytesAt", [BRIDGE, plainKey("releaseRequestQueue"), "latest"]),
    ).toBe("0xc0");
  });

  it("a request under the minimum is refunded whole and rejected with release_request_rejected", async () => {
    const before = await provider.getBalance(cow.address);
    const value = parseEther("0.001");
    const tx = await cow.sendTransaction({to: BRIDGE, value, type: 0, gasLimit: 100_000, gasPrice: 1n});
    const receipt = (await tx.wait())!;
    expect(receipt.logs.map((log) => abi.parseLog(log)!).map((e) => [e.name, ...e.args])).toEqual([
      ["release_request_rejected", cow.address, value, 1n],
    ]);
    expect(await provider.getBalance(cow.address)).toBe(before - receipt.gasUsed * 1n);
  });

  it("a contract's request is rejected as CALLER_CONTRACT", async () => {
    const receipt = await (await caller.connect(cow).getFunction("callAndKeep")("0x", {type: 0})).wait();
    const events = receipt!.logs.flatMap((log: Log) => abi.parseLog(log) ?? []);
    expect(events.map((e: LogDescription) => [e.name, e.args[2]])).toEqual([["release_request_rejected", 2n]]);
  });
});

describe("eth_bridgeState", () => {
  it("answers rskj's object: the light client's height and no peg-out waiting for signatures", async () => {
    expect(await rpc(session.node.httpUrl, "eth_bridgeState", [])).toEqual({
      btcBlockchainBestChainHeight: 0,
      rskTxsWaitingForSignatures: [],
    });
  });
});

describe("bridge.genesisFederationPublicKeys", () => {
  it("a private network's own federation: its address, size and keys", async () => {
    const keys = ["fed-1", "fed-2", "fed-3", "fed-4", "fed-5"].map((s) => new SigningKey(id(s)));
    const own = await startNode([
      "--p2p.enabled",
      "false",
      "--bridge.genesisFederationPublicKeys",
      keys.map((k) => k.compressedPublicKey).join(","),
    ]);
    const ownProvider = new JsonRpcProvider(own.httpUrl, undefined, {cacheTimeout: -1});
    try {
      const ownBridge = new Contract(BRIDGE, BRIDGE_ABI, ownProvider);
      expect(await ownBridge.getFunction("getFederationSize")()).toBe(5n);
      expect(await ownBridge.getFunction("getFederationThreshold")()).toBe(3n);
      const sorted = keys.map((k) => k.compressedPublicKey).sort();
      expect(await ownBridge.getFunction("getFederatorPublicKeyOfType")(0, "btc")).toBe(sorted[0]);
      const address = await ownBridge.getFunction("getFederationAddress")();
      expect(address).toMatch(/^2/);
      expect(address).not.toBe("2N5muMepJizJE1gR7FbHJU6CD18V3BpNF9p");
    } finally {
      ownProvider.destroy();
      await own.stop();
    }
  });
});

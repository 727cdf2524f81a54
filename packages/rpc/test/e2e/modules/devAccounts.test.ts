/**
 * The accounts group of the anvil and Hardhat controls (docs/rpc.md §4.10) on a regtest node:
 * impersonation under both prefixes, eth_sendTransaction from an impersonated account,
 * eth_sendUnsignedTransaction, and the refusals (controls off, not impersonated, public networks).
 */
import {getChainspec} from "@xchain/chainspec";
import {toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {cows, TestNode} from "../../support/node.ts";

const keyless = "0x00000000000000000000000000000000000c0ffe";
const stranger = "0x0000000000000000000000000000000000beef00";
const cow = toData(cows[0]!.address);
const to = toData(cows[9]!.address);

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start({miner: {}});
  // Funds for the keyless accounts, from a dev account.
  for (const account of [keyless, stranger]) {
    await node.result("eth_sendTransaction", [{from: cow, to: account, value: "0xde0b6b3a7640000"}]);
  }
  await node.result("evm_mine");
});
afterAll(() => node.close());

/** Mines the pool, then the receipt of `hash`. */
async function mined(hash: string) {
  await node.result("evm_mine");
  return node.result("eth_getTransactionReceipt", [hash]);
}

describe("anvil_impersonateAccount / hardhat_impersonateAccount", () => {
  it("sends from an account without its key, as if it signed; stopping refuses with the reason", async () => {
    for (const prefix of ["anvil", "hardhat"]) {
      expect(await node.result(`${prefix}_impersonateAccount`, [keyless])).toBeNull();
      const hash = await node.result("eth_sendTransaction", [{from: keyless, to, value: "0x1"}]);
      const receipt = await mined(hash);
      expect([receipt.status, receipt.from]).toEqual(["0x1", keyless]);
      expect((await node.result("eth_getTransactionByHash", [hash])).from).toBe(keyless);
      expect(await node.result(`${prefix}_stopImpersonatingAccount`, [keyless])).toBeNull();
      expect(await node.error("eth_sendTransaction", [{from: keyless, to, value: "0x1"}])).toEqual({
        code: -32000,
        message: `unknown account ${keyless}, and not impersonated (anvil_impersonateAccount)`,
      });
    }
  });
});

describe("anvil_autoImpersonateAccount", () => {
  it("impersonates every sender while on", async () => {
    expect(await node.result("anvil_autoImpersonateAccount", [true])).toBeNull();
    const receipt = await mined(await node.result("eth_sendTransaction", [{from: stranger, to, value: "0x2"}]));
    expect([receipt.status, receipt.from]).toEqual(["0x1", stranger]);
    await node.result("anvil_autoImpersonateAccount", [false]);
    expect((await node.error("eth_sendTransaction", [{from: stranger, to}])).code).toBe(-32000);
    expect((await node.error("anvil_autoImpersonateAccount", ["yes"])).code).toBe(-32602);
  });
});

describe("eth_sendUnsignedTransaction", () => {
  it("sends as `from` without its key and without impersonating it, as anvil does", async () => {
    const hash = await node.result("eth_sendUnsignedTransaction", [{from: stranger, to, value: "0x3"}]);
    const receipt = await mined(hash);
    expect([receipt.status, receipt.from]).toEqual(["0x1", stranger]);
    expect((await node.error("eth_sendTransaction", [{from: stranger, to}])).code).toBe(-32000);
    expect(await node.error("eth_sendUnsignedTransaction", [{to, value: "0x1"}])).toEqual({
      code: -32602,
      message: "invalid argument 0 (transaction.from): required",
    });
  });
});

describe("where the dev controls are off (miner.devControls = false)", () => {
  it("refuses each control and eth_sendUnsignedTransaction with -32602, saying why", async () => {
    const off = await TestNode.start({miner: {devControls: false}});
    try {
      const refusal = {
        code: -32602,
        message: "impersonation is a development control, disabled on this network (miner.devControls)",
      };
      expect(await off.error("anvil_impersonateAccount", [keyless])).toEqual(refusal);
      expect(await off.error("hardhat_stopImpersonatingAccount", [keyless])).toEqual(refusal);
      expect(await off.error("anvil_autoImpersonateAccount", [true])).toEqual(refusal);
      expect(await off.error("eth_sendUnsignedTransaction", [{from: cow, to}])).toEqual(refusal);
      // The wallet's own accounts still send.
      expect(await off.result("eth_sendTransaction", [{from: cow, to}])).toMatch(/^0x[0-9a-f]{64}$/);
    } finally {
      await off.close();
    }
  });
});

describe("on mainnet and testnet", () => {
  it("the controls and eth_sendUnsignedTransaction are off (-32601); the latter follows rpc.modules.anvil", async () => {
    for (const network of ["mainnet", "testnet"] as const) {
      const pub = await TestNode.start({rpcChainspec: getChainspec(network)});
      try {
        for (const name of ["anvil_impersonateAccount", "hardhat_impersonateAccount", "eth_sendUnsignedTransaction"]) {
          expect(pub.server.registry.status(name), `${network} ${name}`).toBe("disabled");
        }
        expect((await pub.error("eth_sendUnsignedTransaction", [{from: cow, to}])).code).toBe(-32601);
        expect(pub.server.registry.status("eth_sendTransaction")).toBe("enabled");
      } finally {
        await pub.close();
      }
    }
    const anvilOn = await TestNode.start({
      rpcChainspec: getChainspec("mainnet"),
      rpc: {modules: {anvil: {enabled: true}}},
    });
    const anvilOff = await TestNode.start({rpc: {modules: {anvil: {enabled: false}}}});
    try {
      expect(anvilOn.server.registry.status("eth_sendUnsignedTransaction")).toBe("enabled");
      expect(anvilOff.server.registry.status("eth_sendUnsignedTransaction")).toBe("disabled");
    } finally {
      await anvilOn.close();
      await anvilOff.close();
    }
  });
});

import {ethWorkPowValue} from "@xchain/miner";
import {bigIntToFixedBytes, bytesToBigInt, hexToBytes, toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {TestNode} from "../../../support/node.ts";

let node: TestNode;
let minerless: TestNode;
beforeAll(async () => {
  node = await TestNode.start({miner: {}});
  minerless = await TestNode.start();
});
afterAll(async () => {
  await node.close();
  await minerless.close();
});

const NO_MINER = "this node has no miner";

describe("eth_getWork", () => {
  it("hands out [pow hash, seed, boundary] as DATA32 (docs/rpc.md §2.11, docs/mining.md)", async () => {
    const work = await node.result("eth_getWork");
    expect(work).toHaveLength(3);
    for (const item of work) expect(item).toMatch(/^0x[0-9a-f]{64}$/);
    expect(work[2]).toBe(`0x${"55".repeat(32)}`);
  });

  it("is -32601 not available without a miner", async () => {
    expect(await minerless.error("eth_getWork")).toEqual({
      code: -32601,
      message: `the method eth_getWork does not exist/is not available: ${NO_MINER}`,
    });
  });
});

describe("eth_submitWork", () => {
  it("imports a block for a nonce that meets the target", async () => {
    const [powHash, seed, boundary] = (await node.result("eth_getWork")).map(hexToBytes);
    const target = bytesToBigInt(boundary);
    let nonce = 0;
    while (ethWorkPowValue(powHash, seed, nonce) > target) nonce++;
    const before = Number(await node.result("eth_blockNumber"));
    const submitted = await node.result("eth_submitWork", [
      toData(bigIntToFixedBytes(BigInt(nonce), 8)),
      toData(powHash),
      toData(new Uint8Array(32)),
    ]);
    expect(submitted).toBe(true);
    expect(Number(await node.result("eth_blockNumber"))).toBe(before + 1);
  });

  it("is false for unknown work, and wants a DATA8 nonce", async () => {
    expect(
      await node.result("eth_submitWork", ["0x0000000000000001", `0x${"01".repeat(32)}`, `0x${"00".repeat(32)}`]),
    ).toBe(false);
    expect((await node.error("eth_submitWork", ["0x01", `0x${"01".repeat(32)}`, `0x${"00".repeat(32)}`])).message).toBe(
      "invalid argument 0 (nonce): hex string has length 2, want 16",
    );
  });
});

describe("eth_submitHashrate", () => {
  it("accepts a rate and a client id, and eth_hashrate counts it", async () => {
    expect(await node.result("eth_submitHashrate", ["0x500000", `0x${"ab".repeat(32)}`])).toBe(true);
    expect(BigInt(await node.result("eth_hashrate"))).toBeGreaterThanOrEqual(0x500000n);
  });
});

describe("eth_hashrate", () => {
  it("is 0x0 without a miner", async () => {
    expect(await minerless.result("eth_hashrate")).toBe("0x0");
  });
});

describe("eth_mining", () => {
  it("tells whether the built-in miner runs", async () => {
    expect(await node.result("eth_mining")).toBe(false);
    expect(await minerless.result("eth_mining")).toBe(false);
  });
});

describe("eth_coinbase", () => {
  it("is the miner's coinbase (regtest: docs/protocol/networks.md §3)", async () => {
    expect(await node.result("eth_coinbase")).toBe("0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d");
    expect((await minerless.error("eth_coinbase")).code).toBe(-32601);
  });
});

describe("eth_netHashrate", () => {
  it("is the difficulty of the last hour's blocks per second", async () => {
    await minerless.mine();
    expect(await minerless.result("eth_netHashrate")).toMatch(/^0x[0-9a-f]+$/);
  });
});

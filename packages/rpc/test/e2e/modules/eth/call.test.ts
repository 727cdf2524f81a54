import {bigIntToFixedBytes, concatBytes, toData, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";
import {probeCall} from "../../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start();
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

const word = (n: bigint) => toData(bigIntToFixedBytes(n, 32));

/** The ABI encoding of Error("nope"). */
const NOPE = concatBytes(
  Uint8Array.of(0x08, 0xc3, 0x79, 0xa0),
  bigIntToFixedBytes(32n, 32),
  bigIntToFixedBytes(4n, 32),
  concatBytes(utf8ToBytes("nope"), new Uint8Array(28)),
);

describe("eth_call", () => {
  it("returns the call's output at the given block", async () => {
    const call = {to: toData(fixture.contract), data: toData(probeCall.value())};
    expect(await node.result("eth_call", [call, "latest"])).toBe(word(42n));
    expect(await node.result("eth_call", [call, "0x1"])).toBe(word(0n));
    expect(await node.result("eth_call", [{...call, input: call.data, data: undefined}, {blockNumber: "0x2"}])).toBe(
      word(42n),
    );
    expect(await node.result("eth_call", [{to: toData(alice.address)}, "latest"])).toBe("0x");
  });

  it("keeps nothing", async () => {
    const store = {from: toData(alice.address), to: toData(fixture.contract), data: toData(probeCall.store(1n, 2n))};
    expect(await node.result("eth_call", [store, "latest"])).toBe("0x");
    expect(await node.result("eth_getStorageAt", [toData(fixture.contract), "0x0", "latest"])).toBe(word(42n));
  });

  it("answers a revert as geth does on regtest: 3, the reason and the payload (docs/rpc.md §7)", async () => {
    expect(
      await node.error("eth_call", [{to: toData(fixture.contract), data: toData(probeCall.fail())}, "latest"]),
    ).toEqual({code: 3, message: "execution reverted: nope", data: toData(NOPE)});
    expect(
      await node.error("eth_call", [{to: toData(fixture.contract), data: toData(probeCall.failBare())}, "latest"]),
    ).toEqual({code: 3, message: "execution reverted", data: "0x"});
  });

  it("answers a revert with -32015, the reason and the payload under rpc.revertErrors = rskj", async () => {
    const rskj = await TestNode.start({rpc: {revertErrors: "rskj"}});
    try {
      const probeAt = toData((await buildFixture(rskj)).contract);
      expect(await rskj.error("eth_call", [{to: probeAt, data: toData(probeCall.fail())}, "latest"])).toEqual({
        code: -32015,
        message: "VM Exception while processing transaction: revert nope",
        data: toData(NOPE),
      });
      expect(await rskj.error("eth_call", [{to: probeAt, data: toData(probeCall.failBare())}, "latest"])).toEqual({
        code: -32015,
        message: "VM Exception while processing transaction: transaction reverted",
        data: "0x",
      });
    } finally {
      await rskj.close();
    }
  });

  it("answers out of gas with -32000", async () => {
    const burn = {to: toData(fixture.contract), data: toData(probeCall.burn(100n)), gas: "0x6000"};
    expect(await node.error("eth_call", [burn, "latest"])).toEqual({code: -32000, message: "out of gas"});
  });

  it("answers -32000 when value exceeds the balance (docs/rpc.md §7)", async () => {
    const poor = {
      from: `0x${"99".repeat(20)}`,
      to: toData(fixture.contract),
      value: "0x1",
      data: toData(probeCall.pay()),
    };
    expect(await node.error("eth_call", [poor, "latest"])).toEqual({
      code: -32000,
      message: "insufficient funds for transfer",
    });
  });

  it("simulates a contract creation without `to` (as geth and rskj; web3.js relies on it)", async () => {
    // PUSH1 0x2a PUSH1 0 MSTORE8 PUSH1 1 PUSH1 0 RETURN: init code whose runtime code is 0x2a.
    expect(await node.result("eth_call", [{data: "0x602a60005360016000f3"}, "latest"])).toBe("0x2a");
  });

  it("requires the block (docs/rpc.md §4.4)", async () => {
    const call = {to: toData(fixture.contract), data: toData(probeCall.value())};
    expect((await node.error("eth_call", [call])).message).toBe("missing value for required argument 1 (block)");
    expect((await node.error("eth_call", [{...call, input: "0x00"}, "latest"])).message).toBe(
      'invalid argument 0 (transaction): both "data" and "input" are set and differ',
    );
    expect((await node.error("eth_call", [{...call, gas: "0x"}, "latest"])).message).toBe(
      'invalid argument 0 (transaction.gas): hex string "0x" is not a quantity',
    );
  });
});

/** eth_call's state override (docs/protocol/state-override.md): each field, isolation, refusals, viem. */
import {getChainspec} from "@xchain/chainspec";
import {bigIntToFixedBytes, toData} from "@xchain/utils";
import {createPublicClient, http} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {createdContractAddress} from "../../../../src/format/receipt.ts";
import {alice, buildFixture, type Fixture} from "../../../support/fixture.ts";
import {TestNode} from "../../../support/node.ts";
import {probeCall} from "../../../support/probe.ts";

let node: TestNode;
let fixture: Fixture;
beforeAll(async () => {
  node = await TestNode.start({rpc: {stateOverride: {maxAccounts: 2}}});
  fixture = await buildFixture(node);
});
afterAll(() => node.close());

const word = (n: bigint) => toData(bigIntToFixedBytes(n, 32));
const OTHER = `0x${"77".repeat(20)}`;
// ADDRESS BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: returns its own balance.
const OWN_BALANCE = "0x303160005260206000f3";
// PUSH1 0 PUSH1 0 PUSH1 0 CREATE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: returns the address it creates.
const CREATE_EMPTY = "0x600060006000f060005260206000f3";
// PUSH1 1 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: returns slot 1.
const SLOT_ONE = "0x60015460005260206000f3";

const value = () => ({to: toData(fixture.contract), data: toData(probeCall.value())});
const call = (request: object, overrides: unknown) => node.result("eth_call", [request, "latest", overrides]);

describe("eth_call state override", () => {
  it("sets code and balance", async () => {
    expect(await call({to: OTHER}, {[OTHER]: {code: OWN_BALANCE, balance: "0x1234"}})).toBe(word(0x1234n));
  });

  it("sets the nonce (the address a CREATE gives)", async () => {
    const created = await call({to: OTHER}, {[OTHER]: {code: CREATE_EMPTY, nonce: "0x5"}});
    expect(created).toBe(word(BigInt(toData(createdContractAddress(bigIntToFixedBytes(BigInt(OTHER), 20), 5n)))));
  });

  it("stateDiff patches slots and keeps the others", async () => {
    const contract = toData(fixture.contract);
    expect(await call(value(), {[contract]: {stateDiff: {"0x0": word(5n)}}})).toBe(word(5n));
    expect(await call(value(), {[contract]: {stateDiff: {[word(1n)]: "0x09"}}})).toBe(word(42n));
  });

  it("state replaces the whole storage: every other slot reads zero", async () => {
    const contract = toData(fixture.contract);
    expect(await call(value(), {[contract]: {state: {[word(1n)]: "0x09"}}})).toBe(word(0n));
    expect(await call({to: contract}, {[contract]: {code: SLOT_ONE, state: {[word(1n)]: "0x09"}}})).toBe(word(9n));
  });

  it("checks value against the overridden balance", async () => {
    const request = {from: OTHER, to: toData(fixture.contract), value: "0x10", data: toData(probeCall.pay())};
    expect((await node.error("eth_call", [request, "latest"])).code).toBe(-32000);
    expect(await call(request, {[OTHER]: {balance: "0x10"}})).toBe("0x");
  });

  it("touches only the call: the next call and the chain state see nothing", async () => {
    const contract = toData(fixture.contract);
    const aliceHex = toData(alice.address);
    const balance = await node.result("eth_getBalance", [aliceHex, "latest"]);
    await call(value(), {[contract]: {state: {}}, [aliceHex]: {balance: "0x1"}});
    expect(await node.result("eth_call", [value(), "latest"])).toBe(word(42n));
    expect(await node.result("eth_getStorageAt", [contract, "0x0", "latest"])).toBe(word(42n));
    expect(await node.result("eth_getBalance", [aliceHex, "latest"])).toBe(balance);
    expect(await node.result("eth_call", [{to: OTHER}, "latest"])).toBe("0x");
  });

  it("applies to eth_estimateGas too (as geth)", async () => {
    const request = {from: OTHER, to: toData(fixture.contract), value: "0x10", data: toData(probeCall.pay())};
    expect((await node.error("eth_estimateGas", [request, "latest"])).code).toBe(-32000);
    expect(await node.result("eth_estimateGas", [request, "latest", {[OTHER]: {balance: "0x10"}}])).toMatch(/^0x/);
    const burn = {to: OTHER, data: toData(probeCall.burn(50n))};
    const plain = BigInt(await node.result("eth_estimateGas", [{to: toData(fixture.contract), data: burn.data}]));
    const code = await node.result("eth_getCode", [toData(fixture.contract), "latest"]);
    expect(
      BigInt(await node.result("eth_estimateGas", [burn, "latest", {[OTHER]: {code, stateDiff: {"0x0": "0x2a"}}}])),
    ).toBe(plain);
  });

  it("accepts {} and null as no override", async () => {
    expect(await call(value(), {})).toBe(word(42n));
    expect(await call(value(), null)).toBe(word(42n));
  });

  it("refuses state with stateDiff, bad hex, too many accounts, precompiles and movePrecompileToAddress with -32602", async () => {
    const refused = async (overrides: unknown) => node.error("eth_call", [value(), "latest", overrides]);
    expect(await refused({[OTHER]: {state: {}, stateDiff: {}}})).toEqual({
      code: -32602,
      message: `invalid argument 2 (stateOverride[${OTHER}]): AccountOverride.stateDiff and AccountOverride.state cannot be set at the same time`,
    });
    expect((await refused({[OTHER]: {balance: "0xzz"}})).code).toBe(-32602);
    expect((await refused({[OTHER]: {code: "0x123"}})).code).toBe(-32602);
    expect((await refused({[OTHER]: {stateDiff: {"0x0": `0x${"1".repeat(65)}`}}})).code).toBe(-32602);
    expect((await refused({"0x12": {balance: "0x1"}})).code).toBe(-32602);
    expect((await refused({[OTHER]: {nonce: "0x8000000000000000"}})).code).toBe(-32602);
    expect((await refused({[OTHER]: {colour: "blue"}})).code).toBe(-32602);
    const three = Object.fromEntries(["11", "22", "33"].map((b) => [`0x${b.repeat(20)}`, {balance: "0x1"}]));
    expect(await refused(three)).toEqual({
      code: -32602,
      message: "invalid argument 2 (stateOverride): 3 accounts overridden, at most 2 allowed",
    });
    const bridge = "0x0000000000000000000000000000000001000006";
    expect(await refused({[bridge]: {balance: "0x1"}})).toEqual({
      code: -32602,
      message: `invalid argument 2 (stateOverride[${bridge}]): Precompiled contracts can not be overridden`,
    });
    expect(await refused({"0x0000000000000000000000000000000000000001": {movePrecompileToAddress: OTHER}})).toEqual({
      code: -32602,
      message:
        "invalid argument 2 (stateOverride[0x0000000000000000000000000000000000000001].movePrecompileToAddress): moving a precompiled contract is not supported",
    });
  });

  it("works through viem's stateOverride", async () => {
    const client = createPublicClient({transport: http(node.url)});
    const {data} = await client.call({
      to: OTHER as `0x${string}`,
      stateOverride: [{address: OTHER as `0x${string}`, balance: 77n, code: OWN_BALANCE}],
    });
    expect(data).toBe(word(77n));
    const stored = await client.call({
      to: toData(fixture.contract) as `0x${string}`,
      data: toData(probeCall.value()) as `0x${string}`,
      stateOverride: [
        {
          address: toData(fixture.contract) as `0x${string}`,
          stateDiff: [{slot: word(0n) as `0x${string}`, value: word(8n) as `0x${string}`}],
        },
      ],
    });
    expect(stored.data).toBe(word(8n));
  });
});

describe("rpc.allowCallStateOverride", () => {
  it("off (mainnet's default, or set false): a non-empty override is -32602 naming the key; {} is accepted", async () => {
    for (const options of [{rpcChainspec: getChainspec("mainnet")}, {rpc: {allowCallStateOverride: false}}]) {
      const off = await TestNode.start(options);
      try {
        const request = {to: OTHER};
        expect(await off.error("eth_call", [request, "latest", {[OTHER]: {balance: "0x1"}}])).toEqual({
          code: -32602,
          message: "state override is not allowed on this node (rpc.allowCallStateOverride)",
        });
        expect(await off.result("eth_call", [request, "latest", {}])).toBe("0x");
      } finally {
        await off.close();
      }
    }
  });
});

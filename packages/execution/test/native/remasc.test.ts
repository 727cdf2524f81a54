/**
 * REMASC as a native contract (docs/protocol/native-contracts.md §11.6; spec native-contracts.md §14.7's
 * `RemascContract`), through real blocks and calls: `getStateForDebugging()` answers REMASC's state as its
 * storage holds it, to anyone, for no gas; `processMinersFees` (empty input or its selector) fails for every
 * message, a transaction's (status 1, intrinsic gas only, the value left with the sender, as rskj) and a
 * contract's (the CALL answers 0); input other than one of the two selectors, exactly 4 bytes, fails too.
 */
import {Address} from "@ethereumjs/util";
import {getChainspec} from "@xchain/chainspec";
import {REMASC_ADDRESS} from "@xchain/primitives";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToHex, bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {AbiCoder} from "ethers";
import {beforeAll, describe, expect, it} from "vitest";
import {RemascStorage} from "../../src/index.ts";
import {intrinsicGas} from "../../src/intrinsic.ts";
import {ETHER, Signer} from "../support/accounts.ts";
import {TestChain} from "../support/chain.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Caller {
    function forward(address target, bytes calldata data) external returns (bool ok, bytes memory out) {
        return target.call(data);
    }
}
`;

const chainspec = getChainspec("regtest");
const coder = AbiCoder.defaultAbiCoder();
const GET_STATE_FOR_DEBUGGING = hexToBytes("0x0d0cee93");
const PROCESS_MINERS_FEES = hexToBytes("0xbe021a58");
const alice = new Signer("remasc contract alice");
let chain: TestChain;
let caller: Uint8Array;
let forwardSelector: Uint8Array;

const call = (to: Uint8Array, data: Uint8Array) =>
  chain.executor.call({
    block: chain.context(),
    chain: chain.view(),
    stateRoot: chain.head.stateRoot,
    from: alice.address,
    to,
    data,
    gasLimit: 1_000_000n,
  });

/** `getStateForDebugging()`'s `bytes`, decoded with a standard ABI decoder. */
const decodedState = (returnValue: Uint8Array) => coder.decode(["bytes"], returnValue)[0] as string;

beforeAll(async () => {
  const compiled = compileSolidity(SOURCE).Caller!;
  forwardSelector = compiled.selectors["forward(address,bytes)"] as Uint8Array;
  chain = await TestChain.create(chainspec, [{address: alice.address, balance: ETHER}]);
  const deployed = await chain.execute([alice.sign({data: compiled.bytecode})]);
  caller = deployed.result?.outcomes[0]?.contractAddress as Uint8Array;
});

describe("REMASC's getStateForDebugging", () => {
  it("answers a fresh REMASC's state, c48080c000, ABI-encoded as bytes, for no gas", async () => {
    const result = await call(REMASC_ADDRESS, GET_STATE_FOR_DEBUGGING);
    expect([result.status, result.error]).toEqual([true, undefined]);
    expect(decodedState(result.returnValue)).toBe("0xc48080c000");
    expect(result.gasUsed).toBe(intrinsicGas({to: REMASC_ADDRESS, data: GET_STATE_FOR_DEBUGGING}));
  });

  it("answers the pool as REMASC's storage holds it once a block's fees have matured and paid out", async () => {
    // Block 2 (after the deployment in block 1) pays fees; ten blocks later they join the pool, and from
    // block 15 on a fifth of the pool is paid per block.
    await chain.execute([alice.sign({to: new Uint8Array(20).fill(0xee), gasPrice: 1n})]);
    while (chain.head.number < 15) await chain.execute([]);
    const result = await call(REMASC_ADDRESS, GET_STATE_FOR_DEBUGGING);
    const session = await chain.source.openSession(chain.head.stateRoot, chain.common);
    const stored = await RemascStorage.load(session.stateManager, new Address(REMASC_ADDRESS));
    session.release();
    expect(stored.values.rewardBalance > 0n).toBe(true);
    expect(decodedState(result.returnValue)).toBe(bytesToPrefixedHex(stored.encodeStateForDebugging()));
  });

  it("answers a contract's CALL too", async () => {
    const data = hexToBytes(
      `0x${bytesToHex(forwardSelector)}${coder.encode(["address", "bytes"], [bytesToPrefixedHex(REMASC_ADDRESS), GET_STATE_FOR_DEBUGGING]).slice(2)}`,
    );
    const [ok, out] = coder.decode(["bool", "bytes"], (await call(caller, data)).returnValue);
    expect(ok).toBe(true);
    expect(decodedState(hexToBytes(out as string)).startsWith("0xc")).toBe(true);
  });
});

describe("REMASC's processMinersFees outside the REMASC transaction", () => {
  const forward = (target: Uint8Array, payload: Uint8Array) =>
    hexToBytes(
      `0x${bytesToHex(forwardSelector)}${coder.encode(["address", "bytes"], [bytesToPrefixedHex(target), payload]).slice(2)}`,
    );

  it("fails for a transaction: status 1, intrinsic gas only, the value left with the sender", async () => {
    const balance = async (address: Uint8Array) => (await chain.account(address))?.balance ?? 0n;
    const aliceBefore = await balance(alice.address);
    const transactions = [
      alice.sign({to: REMASC_ADDRESS, value: 5n}),
      alice.sign({to: REMASC_ADDRESS, data: PROCESS_MINERS_FEES, value: 5n}),
      // Exactly 4 bytes or nothing: a selector followed by one more byte names no method.
      alice.sign({to: REMASC_ADDRESS, data: hexToBytes("0x0d0cee9300"), value: 5n}),
      alice.sign({to: REMASC_ADDRESS, data: hexToBytes("0xdeadbeef"), value: 5n}),
    ];
    const block = await chain.execute(transactions);
    const outcomes = block.result?.outcomes.slice(0, 4) ?? [];
    expect(outcomes.map((o) => [o.status, o.gasUsed])).toEqual(transactions.map((t) => [true, intrinsicGas(t)]));
    // gasPrice 1: alice pays exactly the intrinsic gas of each and keeps the value of every one.
    const fees = outcomes.reduce((sum, o) => sum + o.gasUsed, 0n);
    expect(await balance(alice.address)).toBe(aliceBefore - fees);
    expect(outcomes.every((o) => o.logs.length === 0)).toBe(true);
  });

  it("fails for eth_call (no data, no error) and for a contract's CALL (it answers 0)", async () => {
    for (const data of [new Uint8Array(0), PROCESS_MINERS_FEES]) {
      const direct = await call(REMASC_ADDRESS, data);
      expect([direct.status, direct.returnValue.length, direct.error]).toEqual([true, 0, undefined]);
      const [ok, out] = coder.decode(
        ["bool", "bytes"],
        (await call(caller, forward(REMASC_ADDRESS, data))).returnValue,
      );
      expect([ok, out]).toEqual([false, "0x"]);
    }
  });
});

/**
 * The native-contract dispatch (docs/protocol/native-contracts.md §2) through real blocks and calls, with
 * HDWalletUtils and Environment as the contracts: a transaction to one pays intrinsic + the contract's price; a
 * failing one is an exceptional halt charging only that price, with status 1 and the value left with the sender
 * (rskj's quirk); a price above the gas is all the gas. From a contract: CALL answers 0 with no return data and
 * only the price consumed, or all the forwarded gas when the price does not fit; the four call opcodes reach the
 * contract, each seen as what it is; the local-call flag is that of the message (eth_call or transaction), in
 * internal calls too; Environment's depth is rskj's.
 */
import {getChainspec} from "@xchain/chainspec";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {AbiCoder} from "ethers";
import {afterEach, beforeAll, describe, expect, it, vi} from "vitest";
import {intrinsicGas} from "../../src/intrinsic.ts";
import type {NativeCallContext} from "../../src/native/dispatch/types.ts";
import {environment} from "../../src/native/environment/environment.ts";
import {wordAt} from "../support/abi.ts";
import {ETHER, Signer} from "../support/accounts.ts";
import {TestChain} from "../support/chain.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Probe {
    address constant ENV = 0x0000000000000000000000000000000001000011;
    /// Calls target with data and gas; whether it succeeded, its return data's size and the gas the call took.
    function probe(address target, bytes calldata data, uint256 gas) external payable returns (bool ok, uint256 size, uint256 used) {
        uint256 start = gasleft();
        (bool s, bytes memory out) = target.call{gas: gas, value: msg.value}(data);
        used = start - gasleft();
        return (s, out.length, used);
    }
    function viaStatic(address target, bytes calldata data) external view returns (bool ok, bytes memory out) {
        return target.staticcall(data);
    }
    function viaDelegate(address target, bytes calldata data) external returns (bool ok, bytes memory out) {
        return target.delegatecall(data);
    }
    function viaCallcode(address target, bytes calldata data) external returns (bool ok) {
        assembly {
            let p := mload(0x40)
            calldatacopy(p, data.offset, data.length)
            ok := callcode(gas(), target, 0, p, data.length, 0, 0)
        }
    }
    /// Environment's call stack depth, asked from n frames of this contract (n >= 1).
    function depth(uint256 n) external returns (uint32) {
        if (n > 1) return Probe(address(this)).depth(n - 1);
        (bool ok, bytes memory out) = ENV.call(abi.encodeWithSignature("getCallStackDepth()"));
        require(ok);
        return abi.decode(out, (uint32));
    }
}
`;

const chainspec = getChainspec("regtest");
const HD_WALLET = hexToBytes("0x0000000000000000000000000000000001000009");
const ENVIRONMENT = hexToBytes("0x0000000000000000000000000000000001000011");
const coder = AbiCoder.defaultAbiCoder();
const alice = new Signer("dispatch alice");
let chain: TestChain;
let probe: Uint8Array;
let selectors: Record<string, Uint8Array>;

/** toBase58Check(hash, 111): 13,000 gas; a hash of 3 bytes fails at the same price. */
const toBase58Check = (hash: string) =>
  hexToBytes(`0x838c2a31${coder.encode(["bytes", "int256"], [hash, 111]).slice(2)}`);
const GOOD = toBase58Check("0x0d3bf5f30dda7584645546079318e97f0e1d044f");
const BAD = toBase58Check("0xaabbcc");
const GET_CALL_STACK_DEPTH = hexToBytes("0xe8ce2274");

/** Probe calldata: `signature` with its arguments ABI-encoded. */
const probeData = (signature: string, types: string[], args: unknown[]) =>
  hexToBytes(`0x${bytesToHex(selectors[signature] as Uint8Array)}${coder.encode(types, args).slice(2)}`);

const callProbe = (data: Uint8Array, value = 0n) =>
  chain.executor.call({
    block: chain.context(),
    chain: chain.view(),
    stateRoot: chain.head.stateRoot,
    from: alice.address,
    to: probe,
    data,
    value,
    gasLimit: 3_000_000n,
  });

beforeAll(async () => {
  const compiled = compileSolidity(SOURCE).Probe!;
  selectors = compiled.selectors;
  chain = await TestChain.create(chainspec, [{address: alice.address, balance: ETHER}]);
  const block = await chain.execute([alice.sign({data: compiled.bytecode})]);
  probe = block.result?.outcomes[0]?.contractAddress as Uint8Array;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a transaction sent to a native contract", () => {
  it("pays intrinsic gas plus the price; a failure pays the same, status 1, and the value stays with the sender", async () => {
    const balance = async (address: Uint8Array) => (await chain.account(address))?.balance ?? 0n;
    const [aliceBefore, walletBefore] = [await balance(alice.address), await balance(HD_WALLET)];
    const good = alice.sign({to: HD_WALLET, data: GOOD, value: 5n});
    const bad = alice.sign({to: HD_WALLET, data: BAD, value: 7n});
    const unknown = alice.sign({to: HD_WALLET, data: hexToBytes("0xdeadbeef")});
    const block = await chain.execute([good, bad, unknown]);
    const outcomes = block.result?.outcomes ?? [];
    expect(outcomes.slice(0, 3).map((o) => [o.status, o.gasUsed])).toEqual([
      [true, intrinsicGas(good) + 13_000n],
      [true, intrinsicGas(bad) + 13_000n],
      // No method: price 0, rskj's 21,064 for 0xdeadbeef.
      [true, 21_064n],
    ]);
    // The successful call's value stays in the contract; the failed call's is returned.
    expect(await balance(HD_WALLET)).toBe(walletBefore + 5n);
    const gas = outcomes.slice(0, 3).reduce((sum, o) => sum + o.gasUsed, 0n);
    expect(await balance(alice.address)).toBe(aliceBefore - 5n - gas);
  });

  it("whose gas limit does not cover the price fails and consumes all its gas", async () => {
    const data = GOOD;
    const limit = intrinsicGas({to: HD_WALLET, data}) + 12_999n;
    const block = await chain.execute([alice.sign({to: HD_WALLET, data, gasLimit: limit})]);
    expect([block.result?.outcomes[0]?.status, block.result?.outcomes[0]?.gasUsed]).toEqual([false, limit]);
  });

  it("in eth_call, a failure answers no data and no error; a success its encoding", async () => {
    const call = (data: Uint8Array) =>
      chain.executor.call({
        block: chain.context(),
        chain: chain.view(),
        stateRoot: chain.head.stateRoot,
        from: alice.address,
        to: HD_WALLET,
        data,
        gasLimit: 100_000n,
      });
    const bad = await call(BAD);
    expect([bad.status, bad.returnValue.length, bad.error]).toEqual([true, 0, undefined]);
    const good = await call(GOOD);
    expect(coder.decode(["string"], good.returnValue)[0]).toBe("mgivuh9jErcGdRr81cJ3A7YfgbJV7WNyZV");
  });
});

describe("a native contract called from a contract", () => {
  const probeCall = (data: Uint8Array, gas: bigint, target = HD_WALLET) =>
    probeData("probe(address,bytes,uint256)", ["address", "bytes", "uint256"], [`0x${bytesToHex(target)}`, data, gas]);

  it("succeeds with its answer, or fails with no return data consuming only its price", async () => {
    const good = await callProbe(probeCall(GOOD, 50_000n));
    // A 34-character string: offset, length and two words.
    expect([wordAt(good.returnValue, 0), wordAt(good.returnValue, 1)]).toEqual([1n, 128n]);
    const [bad, badMoreGas] = [await callProbe(probeCall(BAD, 50_000n)), await callProbe(probeCall(BAD, 90_000n))];
    expect([wordAt(bad.returnValue, 0), wordAt(bad.returnValue, 1)]).toEqual([0n, 0n]);
    // What the failed call took does not depend on the gas it was given: only the price is consumed.
    expect(wordAt(bad.returnValue, 2)).toBe(wordAt(badMoreGas.returnValue, 2));
    // The same price as the success: the difference is the success's return data (memory and copying).
    const difference = wordAt(good.returnValue, 2) - wordAt(bad.returnValue, 2);
    expect(difference > 0n && difference < 100n).toBe(true);
  });

  it("given less gas than its price, consumes all of it", async () => {
    const [less, evenLess] = [await callProbe(probeCall(GOOD, 12_999n)), await callProbe(probeCall(GOOD, 10_000n))];
    expect([wordAt(less.returnValue, 0), wordAt(evenLess.returnValue, 0)]).toEqual([0n, 0n]);
    expect(wordAt(less.returnValue, 2) - wordAt(evenLess.returnValue, 2)).toBe(2_999n);
  });

  it("is reached by CALL, STATICCALL, DELEGATECALL and CALLCODE, each seen as what it is", async () => {
    const seen = vi.spyOn(environment, "run");
    const target = `0x${bytesToHex(ENVIRONMENT)}`;
    const args = ["address", "bytes"];
    const results = [
      await callProbe(probeCall(GET_CALL_STACK_DEPTH, 100_000n, ENVIRONMENT)),
      await callProbe(probeData("viaStatic(address,bytes)", args, [target, GET_CALL_STACK_DEPTH])),
      await callProbe(probeData("viaDelegate(address,bytes)", args, [target, GET_CALL_STACK_DEPTH])),
      await callProbe(probeData("viaCallcode(address,bytes)", args, [target, GET_CALL_STACK_DEPTH])),
    ];
    expect(results.map((r) => [r.status, wordAt(r.returnValue, 0)])).toEqual([
      [true, 1n],
      [true, 1n],
      [true, 1n],
      [true, 1n],
    ]);
    const contexts = seen.mock.calls.map((c) => c[1] as NativeCallContext);
    expect(contexts.map((c) => [c.callType, c.isStatic, c.depth, bytesToHex(c.sender)])).toEqual([
      ["CALL", false, 1, bytesToHex(probe)],
      ["STATICCALL", true, 1, bytesToHex(probe)],
      ["DELEGATECALL", false, 1, bytesToHex(probe)],
      ["CALLCODE", false, 1, bytesToHex(probe)],
    ]);
  });
});

describe("the local-call flag and Environment's depth", () => {
  it("is set in eth_call, also for internal calls, and not in a transaction", async () => {
    const seen = vi.spyOn(environment, "run");
    const depth = probeData("depth(uint256)", ["uint256"], [2n]);
    expect(wordAt((await callProbe(depth)).returnValue, 0)).toBe(2n);
    await chain.execute([
      alice.sign({to: probe, data: depth}),
      alice.sign({to: ENVIRONMENT, data: GET_CALL_STACK_DEPTH}),
    ]);
    const contexts = seen.mock.calls.map((c) => c[1] as NativeCallContext);
    expect(contexts.map((c) => [c.localCall, c.callType, c.transactionHash === undefined])).toEqual([
      [true, "CALL", true],
      [false, "CALL", false],
      [false, "TRANSACTION", false],
    ]);
    expect(bytesToHex(contexts[1]?.origin as Uint8Array)).toBe(bytesToHex(alice.address));
  });

  it("Environment answers 1 to a transaction, and the depth of its caller + 1 from contracts", async () => {
    const direct = await chain.executor.call({
      block: chain.context(),
      chain: chain.view(),
      stateRoot: chain.head.stateRoot,
      from: alice.address,
      to: ENVIRONMENT,
      data: GET_CALL_STACK_DEPTH,
      gasLimit: 100_000n,
    });
    expect(wordAt(direct.returnValue, 0)).toBe(1n);
    for (const n of [1n, 3n, 10n]) {
      const answer = await callProbe(probeData("depth(uint256)", ["uint256"], [n]));
      expect(wordAt(answer.returnValue, 0)).toBe(n);
    }
  });

  it("Environment costs nothing beyond the intrinsic gas", async () => {
    const tx = alice.sign({to: ENVIRONMENT, data: GET_CALL_STACK_DEPTH});
    const block = await chain.execute([tx]);
    expect(block.result?.outcomes[0]?.gasUsed).toBe(intrinsicGas(tx));
  });
});

/**
 * The Ethereum-numbered precompiles priced as rskj prices them (docs/protocol/gas.md §6.1) through real blocks and
 * calls: a failure inside a call consumes only the price (RSKIP-197), not all the forwarded gas; a transaction
 * sent straight to a failing one gets status 1 and pays intrinsic gas plus the price; an internal call's input is
 * cut to the precompile's maximum (RSKIP-516) where a transaction's is not. The cases are rskj's fixture
 * `precompiled_error_handling.txt` (pairing and blake2f on 32 bytes) and EIP-152's blake2f vector.
 */
import {getChainspec} from "@xchain/chainspec";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToHex, concatBytes, hexToBytes} from "@xchain/utils";
import {AbiCoder} from "ethers";
import {beforeAll, describe, expect, it} from "vitest";
import {intrinsicGas} from "../../src/intrinsic.ts";
import {ETHER, Signer} from "../support/accounts.ts";
import {TestChain} from "../support/chain.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Probe {
    /// Calls target with data and gas; whether it succeeded, the gas the call took and its return data.
    function probe(address target, bytes calldata data, uint256 gas) external returns (bool ok, uint256 used, bytes memory out) {
        uint256 start = gasleft();
        (ok, out) = target.staticcall{gas: gas}(data);
        used = start - gasleft();
    }
}
`;

const coder = AbiCoder.defaultAbiCoder();
const alice = new Signer("price-first alice");
const PAIRING = hexToBytes("0x0000000000000000000000000000000000000008");
const BLAKE2F = hexToBytes("0x0000000000000000000000000000000000000009");
// EIP-152's fifth vector: 12 rounds of "abc", and its answer.
const BLAKE2F_INPUT = hexToBytes(
  `0x0000000c48c9bdf267e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d182e6ad7f520e511f6c3e2b8c68059b6bbd41fbabd9831f79217e1319cde05b61626300${"00".repeat(124)}0300000000000000000000000000000001`,
);
const BLAKE2F_OUTPUT =
  "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
let chain: TestChain;
let probe: Uint8Array;
let selector: Uint8Array;

beforeAll(async () => {
  const compiled = compileSolidity(SOURCE).Probe!;
  selector = compiled.selectors["probe(address,bytes,uint256)"] as Uint8Array;
  chain = await TestChain.create(getChainspec("regtest"), [{address: alice.address, balance: ETHER}]);
  const block = await chain.execute([alice.sign({data: compiled.bytecode})]);
  probe = block.result?.outcomes[0]?.contractAddress as Uint8Array;
});

/** What the probe saw of a STATICCALL to `target` with `data` and `gas`: ok, gas taken, return data. */
async function probeCall(target: Uint8Array, data: Uint8Array, gas: bigint) {
  const args = coder.encode(["address", "bytes", "uint256"], [`0x${bytesToHex(target)}`, data, gas]);
  const call = await chain.executor.call({
    block: chain.context(),
    chain: chain.view(),
    stateRoot: chain.head.stateRoot,
    from: alice.address,
    to: probe,
    data: concatBytes(selector, hexToBytes(args)),
    gasLimit: 3_000_000n,
  });
  const [ok, used, out] = coder.decode(["bool", "uint256", "bytes"], call.returnValue);
  return {ok: ok as boolean, used: used as bigint, out: (out as string).slice(2)};
}

describe("a failing precompile called from a contract", () => {
  it("consumes only its price: pairing of 32 bytes costs 45,000 whatever gas it is given", async () => {
    const data = new Uint8Array(32);
    const [given, more] = [await probeCall(PAIRING, data, 100_000n), await probeCall(PAIRING, data, 1_000_000n)];
    expect([given.ok, more.ok, given.out, more.out]).toEqual([false, false, "", ""]);
    expect(given.used).toBe(more.used);
    // The STATICCALL's own 700 and the probe's bookkeeping around the 45,000.
    expect(given.used - 45_000n > 0n && given.used - 45_000n < 1_000n).toBe(true);
  });

  it("blake2f of a wrong length is priced 0: the failure costs nothing beyond the call", async () => {
    const failed = await probeCall(BLAKE2F, new Uint8Array(32), 100_000n);
    const ok = await probeCall(BLAKE2F, BLAKE2F_INPUT, 100_000n);
    expect([failed.ok, ok.ok, ok.out]).toEqual([false, true, BLAKE2F_OUTPUT]);
    // The success pays its 12 rounds and copies 64 bytes back; the failure pays no rounds.
    expect(failed.used < ok.used).toBe(true);
    expect(failed.used < 1_000n).toBe(true);
  });

  it("given less gas than its price, consumes all of it", async () => {
    const [less, evenLess] = [
      await probeCall(PAIRING, new Uint8Array(32), 44_999n),
      await probeCall(PAIRING, new Uint8Array(32), 40_000n),
    ];
    expect([less.ok, evenLess.ok]).toEqual([false, false]);
    expect(less.used - evenLess.used).toBe(4_999n);
  });

  it("an internal call's input is cut to blake2f's 213 bytes (RSKIP-516)", async () => {
    const longer = await probeCall(BLAKE2F, concatBytes(BLAKE2F_INPUT, new Uint8Array(7)), 100_000n);
    expect([longer.ok, longer.out]).toEqual([true, BLAKE2F_OUTPUT]);
  });
});

describe("a transaction sent straight to a precompile", () => {
  it("a failure gets status 1 and pays intrinsic gas plus the price; a transaction's input is not cut", async () => {
    const pairing = alice.sign({to: PAIRING, data: new Uint8Array(32)});
    const longBlake = alice.sign({to: BLAKE2F, data: concatBytes(BLAKE2F_INPUT, new Uint8Array(1))});
    const blake = alice.sign({to: BLAKE2F, data: BLAKE2F_INPUT});
    const block = await chain.execute([pairing, longBlake, blake]);
    const outcomes = block.result?.outcomes ?? [];
    expect(outcomes.slice(0, 3).map((o) => [o.status, o.gasUsed])).toEqual([
      [true, intrinsicGas(pairing) + 45_000n],
      // 214 bytes: a wrong length, priced 0, failing.
      [true, intrinsicGas(longBlake)],
      [true, intrinsicGas(blake) + 12n],
    ]);
  });
});

/**
 * Solidity contracts (solc-js 0.8.37, evmVersion cancun) on rskj's opcode set: PUSH0, MCOPY,
 * TSTORE/TLOAD, BASEFEE = minimumGasPrice, DIFFICULTY = block difficulty, CHAINID, reverts with
 * their payload, logs and bloom, EXTCODESIZE/EXTCODEHASH semantics, BLOCKHASH.
 */
import {KECCAK256_NULL} from "@ethereumjs/util";
import {getChainspec} from "@xchain/chainspec";
import {bloomContains} from "@xchain/primitives";
import {type CompiledContract, compileSolidity} from "@xchain/test-utils";
import {bytesToBigInt, concatBytes, hexToBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {beforeAll, describe, expect, it} from "vitest";
import {calldata, word, wordAt} from "./support/abi.ts";
import {ETHER, Signer} from "./support/accounts.ts";
import {TestChain} from "./support/chain.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

contract Probe {
    event Seen(address indexed who, uint256 value);

    function baseFee() external view returns (uint256) { return block.basefee; }
    function difficulty() external view returns (uint256) { return block.prevrandao; }
    function chainId() external view returns (uint256) { return block.chainid; }
    function hashOf(uint256 n) external view returns (bytes32) { return blockhash(n); }
    function codeSizeOf(address a) external view returns (uint256 s) { assembly { s := extcodesize(a) } }
    function codeHashOf(address a) external view returns (bytes32 h) { assembly { h := extcodehash(a) } }
    function copied() external pure returns (uint256 r) {
        assembly { mstore(0x100, 0x1234) mcopy(0x140, 0x100, 32) r := mload(0x140) }
    }
    function transientRoundTrip(uint256 v) external returns (uint256 r) { assembly { tstore(7, v) r := tload(7) } }
    function transientSet(uint256 v) external { assembly { tstore(7, v) } }
    function transientEmit() external { uint256 v; assembly { v := tload(7) } emit Seen(msg.sender, v); }
    function fail() external pure { revert("nope"); }
}
`;

const chainspec = getChainspec("regtest");
const alice = new Signer("alice");
let probe: CompiledContract;
let chain: TestChain;
let probeAddress: Uint8Array;

async function view(selector: Uint8Array, ...args: (bigint | Uint8Array)[]): Promise<Uint8Array> {
  const result = await chain.executor.call({
    block: chain.context({minimumGasPrice: 5n, difficulty: 987_654_321n}),
    chain: chain.view(),
    stateRoot: chain.head.stateRoot,
    from: alice.address,
    to: probeAddress,
    data: calldata(selector, ...args),
    gasLimit: 1_000_000n,
  });
  expect(result.status).toBe(true);
  return result.returnValue;
}

const sel = (signature: string) => probe.selectors[signature] as Uint8Array;

beforeAll(async () => {
  probe = compileSolidity(SOURCE).Probe as CompiledContract;
  chain = await TestChain.create(chainspec, [{address: alice.address, balance: ETHER}]);
  const block = await chain.execute([alice.sign({data: probe.bytecode})]);
  probeAddress = block.result?.outcomes[0]?.contractAddress as Uint8Array;
  expect(probeAddress).toBeDefined();
});

describe("rskj opcode set", () => {
  it("deploys solc 0.8.37 cancun code, which uses PUSH0 (PUSH0 PUSH0 REVERT guards, PUSH0 CALLDATALOAD)", () => {
    const hex = Buffer.from(probe.bytecode).toString("hex");
    expect(hex).toContain("5f5ffd");
    expect(hex).toContain("5f3560e01c");
  });

  it("BASEFEE is the block's minimumGasPrice, DIFFICULTY its difficulty, CHAINID 33", async () => {
    expect(bytesToBigInt(await view(sel("baseFee()")))).toBe(5n);
    expect(bytesToBigInt(await view(sel("difficulty()")))).toBe(987_654_321n);
    expect(bytesToBigInt(await view(sel("chainId()")))).toBe(33n);
  });

  it("MCOPY and TSTORE/TLOAD work", async () => {
    expect(bytesToBigInt(await view(sel("copied()")))).toBe(0x1234n);
    expect(bytesToBigInt(await view(sel("transientRoundTrip(uint256)"), 42n))).toBe(42n);
  });

  it("BLOCKHASH reads the chain view", async () => {
    expect(await view(sel("hashOf(uint256)"), 1n)).toEqual(chain.blocks[1]?.hash);
    expect(bytesToBigInt(await view(sel("hashOf(uint256)"), 5n))).toBe(0n);
  });

  it("EXTCODESIZE of a precompile is 2^256-1; EXTCODEHASH is 0 for missing, keccak('') for precompiles", async () => {
    const ecrecover = hexToBytes("0000000000000000000000000000000000000001");
    const bridge = hexToBytes("0000000000000000000000000000000001000006");
    expect(bytesToBigInt(await view(sel("codeSizeOf(address)"), ecrecover))).toBe((1n << 256n) - 1n);
    expect(bytesToBigInt(await view(sel("codeSizeOf(address)"), bridge))).toBe((1n << 256n) - 1n);
    expect(await view(sel("codeHashOf(address)"), bridge)).toEqual(KECCAK256_NULL);
    const nobody = new Uint8Array(20).fill(0x77);
    expect(bytesToBigInt(await view(sel("codeHashOf(address)"), nobody))).toBe(0n);
    expect(bytesToBigInt(await view(sel("codeSizeOf(address)"), probeAddress))).toBeGreaterThan(0n);
  });

  it("EXTCODEHASH of an existing empty account is keccak(''), not 0 (no EIP-161)", async () => {
    const empty = new Uint8Array(20).fill(0x55);
    await chain.execute([alice.sign({to: empty, value: 0n, gasLimit: 21_000n})]);
    expect(await chain.account(empty)).toBeDefined();
    expect(await view(sel("codeHashOf(address)"), empty)).toEqual(KECCAK256_NULL);
  });

  it("transient storage is cleared between transactions of a block", async () => {
    const block = await chain.execute([
      alice.sign({to: probeAddress, data: calldata(sel("transientSet(uint256)"), 9n)}),
      alice.sign({to: probeAddress, data: calldata(sel("transientEmit()"))}),
    ]);
    const log = block.result?.outcomes[1]?.logs[0];
    expect(log?.data).toEqual(word(0n));
  });

  it("a revert reports status false and the Error(string) payload", async () => {
    const block = await chain.execute([alice.sign({to: probeAddress, data: calldata(sel("fail()"))})]);
    const outcome = block.result?.outcomes[0];
    expect(outcome?.status).toBe(false);
    const errorSelector = keccak256(utf8ToBytes("Error(string)")).subarray(0, 4);
    const reason = utf8ToBytes("nope");
    const expected = concatBytes(errorSelector, word(32n), word(BigInt(reason.length)), reason, new Uint8Array(28));
    expect(outcome?.revertData).toEqual(expected);
    expect(block.result?.receipts[0]?.success).toBe(false);
  });

  it("logs reach the receipt and the receipt and block blooms", async () => {
    const block = await chain.execute([alice.sign({to: probeAddress, data: calldata(sel("transientEmit()"))})]);
    const result = block.result!;
    const log = result.outcomes[0]?.logs[0];
    expect(log?.address).toEqual(probeAddress);
    const topic = keccak256(utf8ToBytes("Seen(address,uint256)"));
    expect(log?.topics).toEqual([topic, word(alice.address)]);
    expect(result.receipts[0]?.logs).toEqual([log]);
    for (const bloom of [result.receipts[0]?.logsBloom as Uint8Array, result.logsBloom]) {
      expect(bloomContains(bloom, probeAddress)).toBe(true);
      expect(bloomContains(bloom, topic)).toBe(true);
    }
    expect(wordAt(log?.data as Uint8Array, 0)).toBe(0n);
  });
});

/**
 * Fork mode's native contracts (docs/forking.md §6): on a forked chain (a chain view with `forkAncestry`) a
 * message to the one RSK native contract xchain cannot run there (the Bridge; the stateless ones and REMASC
 * run) stops with `NativeContractUnavailableError` whether it is the call itself or an internal call at any
 * depth; precompiles xchain executes (0x01–0x09) still run; block assembly skips a transaction reaching the
 * Bridge and its block equals a cold execution without it. On a chain that is not a fork the Bridge runs; one
 * executor serves both kinds of view, its pooled call contexts kept apart.
 */
import {createHash} from "node:crypto";
import {getChainspec} from "@xchain/chainspec";
import {createRemascTransaction} from "@xchain/primitives";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {beforeAll, describe, expect, it} from "vitest";
import {NativeContractErrorCode, NativeContractUnavailableError} from "../../src/errors.ts";
import {NATIVE_CONTRACTS} from "../../src/precompiles/addresses.ts";
import type {ExecutionTracer} from "../../src/tracing/types.ts";
import type {CallInput, CallResult, ExecutionChainView} from "../../src/types.ts";
import {calldata, word, wordAt} from "../support/abi.ts";
import {ETHER, Signer} from "../support/accounts.ts";
import {TestChain} from "../support/chain.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Relay {
    /// Calls target with one word; whether it succeeded and how long its answer was.
    function relay(address target, uint256 arg) public returns (bool ok, uint256 size) {
        (bool s, bytes memory r) = target.call(abi.encode(arg));
        return (s, r.length);
    }
    /// The same through another relay: the native contract is two frames down.
    function nested(address other, address target) external returns (bool ok, uint256 size) {
        return Relay(other).relay(target, 1);
    }
    function relayStatic(address target) external view returns (bool ok, uint256 size) {
        (bool s, bytes memory r) = target.staticcall(abi.encode(uint256(1)));
        return (s, r.length);
    }
    /// sha256 of one word, through the 0x02 precompile.
    function hash(uint256 x) external view returns (bytes32) {
        return sha256(abi.encode(x));
    }
}
`;

const chainspec = getChainspec("regtest");
const BRIDGE = hexToBytes("0x0000000000000000000000000000000001000006");
/** secp256k1 addition (RSKIP-516): stateless, so it runs on a fork. */
const SECP256K1_ADD = hexToBytes("0x0000000000000000000000000000000001000016");
/**
 * The native contracts that run on a fork (docs/forking.md §6); BlockHeader only above the fork block, REMASC on
 * its storage read through the fork's base.
 */
const RUN_ON_FORK = [
  "REMASC",
  "HDWalletUtils",
  "BlockHeader",
  "Environment",
  "Secp256k1Addition",
  "Secp256k1Multiplication",
];
const SHA256 = hexToBytes("0x0000000000000000000000000000000000000002");
const alice = new Signer("native alice");
const bob = new Signer("native bob");
let chain: TestChain;
let relay: Uint8Array;
let other: Uint8Array;
let selectors: Record<string, Uint8Array>;

/** The test chain's view as a fork of its genesis would give it: BLOCKHASH(0) from the "upstream". */
const forkView = (): ExecutionChainView => ({
  ...chain.view(),
  forkAncestry: {number: 0, hashAt: async (n) => chain.blocks[n]?.hash},
});

/** A call on the forked view (`view` for another). */
const input = (
  to: Uint8Array,
  data: Uint8Array = new Uint8Array(0),
  value = 0n,
  view: ExecutionChainView = forkView(),
): CallInput => ({
  block: chain.context(),
  chain: view,
  stateRoot: chain.head.stateRoot,
  from: alice.address,
  to,
  data,
  value,
  gasLimit: 1_000_000n,
});

const relayData = (signature: string, ...args: (bigint | Uint8Array)[]) =>
  calldata(selectors[signature] as Uint8Array, ...args);

/** The NativeContractUnavailableError `run` rejects with. */
const unavailable = (run: Promise<unknown>): Promise<NativeContractUnavailableError> =>
  run.then(
    () => expect.unreachable("the message ran"),
    (e: unknown) => {
      expect(e).toBeInstanceOf(NativeContractUnavailableError);
      return e as NativeContractUnavailableError;
    },
  );

function expectBridge(error: NativeContractUnavailableError): void {
  expect(error.type).toEqual({
    code: NativeContractErrorCode.UNAVAILABLE,
    address: "0x0000000000000000000000000000000001000006",
    name: "Bridge",
  });
  expect(error.message).toBe(
    "the native contract Bridge (0x0000000000000000000000000000000001000006) cannot be executed in fork mode: " +
      "it runs on the upstream's native-contract storage, which xchain does not hold",
  );
}

beforeAll(async () => {
  const compiled = compileSolidity(SOURCE).Relay!;
  selectors = compiled.selectors;
  chain = await TestChain.create(chainspec, [
    {address: alice.address, balance: ETHER},
    {address: bob.address, balance: ETHER},
  ]);
  const block = await chain.execute([alice.sign({data: compiled.bytecode}), alice.sign({data: compiled.bytecode})]);
  relay = block.result?.outcomes[0]?.contractAddress as Uint8Array;
  other = block.result?.outcomes[1]?.contractAddress as Uint8Array;
});

describe("on a forked chain", () => {
  it("a call to a native contract xchain cannot run there stops with the typed error naming it", async () => {
    // Every native contract runs on a fork but the Bridge.
    expect(NATIVE_CONTRACTS.map((c) => c.name)).toEqual(["Bridge", ...RUN_ON_FORK]);
    expectBridge(await unavailable(chain.executor.call(input(BRIDGE, word(1n), 5n))));
    for (const {address, name} of NATIVE_CONTRACTS.filter((c) => !RUN_ON_FORK.includes(c.name))) {
      const error = await unavailable(chain.executor.call(input(address)));
      expect([error.type.address, error.type.name]).toEqual([`0x${bytesToHex(address)}`, name]);
    }
  });

  it("the stateless contracts run on a fork: Environment answers, HDWalletUtils refuses bad input as rskj", async () => {
    const environment = NATIVE_CONTRACTS.find((c) => c.name === "Environment")?.address as Uint8Array;
    const depth = await chain.executor.call(input(environment, hexToBytes("0xe8ce2274")));
    expect([depth.status, wordAt(depth.returnValue, 0)]).toEqual([true, 1n]);
    const hdWallet = NATIVE_CONTRACTS.find((c) => c.name === "HDWalletUtils")?.address as Uint8Array;
    // No method for one byte: rskj's failure, which a transaction's receipt reports as success, with no output.
    const refused = await chain.executor.call(input(hdWallet, hexToBytes("0x01")));
    expect([refused.status, refused.returnValue.length]).toEqual([true, 0]);
  });

  it("REMASC runs on a fork: getStateForDebugging answers the fork's state, processMinersFees fails as anywhere", async () => {
    const remasc = NATIVE_CONTRACTS.find((c) => c.name === "REMASC")?.address as Uint8Array;
    const state = await chain.executor.call(input(remasc, hexToBytes("0x0d0cee93")));
    // bytes: offset 32, length 5, then a fresh REMASC's c48080c000 (nothing has matured on this chain).
    expect([state.status, wordAt(state.returnValue, 1), bytesToHex(state.returnValue.subarray(64, 69))]).toEqual([
      true,
      5n,
      "c48080c000",
    ]);
    const refused = await chain.executor.call(input(remasc));
    expect([refused.status, refused.returnValue.length]).toEqual([true, 0]);
  });

  it("an internal call into the Bridge, one or two frames down, CALL or STATICCALL, stops the whole call", async () => {
    expectBridge(await unavailable(chain.executor.call(input(relay, relayData("relay(address,uint256)", BRIDGE, 1n)))));
    expectBridge(
      await unavailable(chain.executor.call(input(relay, relayData("nested(address,address)", other, BRIDGE)))),
    );
    expectBridge(await unavailable(chain.executor.call(input(relay, relayData("relayStatic(address)", BRIDGE)))));
    const tracer: ExecutionTracer = {};
    expectBridge(
      await unavailable(
        chain.executor.traceCall(input(relay, relayData("relay(address,uint256)", BRIDGE, 1n)), tracer),
      ),
    );
  });

  it("precompiles xchain executes still run, and the call context is reusable after a stopped call", async () => {
    const expected = createHash("sha256").update(word(7n)).digest("hex");
    const direct = await chain.executor.call(input(SHA256, word(7n)));
    expect([direct.status, bytesToHex(direct.returnValue)]).toEqual([true, expected]);
    const inner = await chain.executor.call(input(relay, relayData("hash(uint256)", 7n)));
    expect([inner.status, bytesToHex(inner.returnValue)]).toEqual([true, expected]);
    const relayed = await chain.executor.call(input(relay, relayData("relay(address,uint256)", SHA256, 7n)));
    expect([relayed.status, wordAt(relayed.returnValue, 0), wordAt(relayed.returnValue, 1)]).toEqual([true, 1n, 32n]);
  });

  it("block assembly skips a transaction reaching a native contract, with the error as its reason", async () => {
    const parent = chain.head;
    const a1 = alice.sign({to: bob.address, value: 1_000n});
    const a2 = alice.sign({to: BRIDGE, value: 2_000n}); // a peg-out on rskj
    const b1 = bob.sign({to: alice.address, value: 3_000n});
    const b2 = bob.sign({to: relay, data: relayData("nested(address,address)", other, BRIDGE)});
    const b3 = bob.sign({to: alice.address, value: 4_000n}); // nonce 2 after b2: skipped for its nonce
    const a3 = alice.sign({to: relay, data: relayData("hash(uint256)", 7n)}); // nonce 2 after a2: skipped too
    const assembled = await chain.executor.assembleBlock({
      block: chain.context(),
      candidates: [a1, a2, b1, b2, b3, a3],
      parentStateRoot: parent.stateRoot,
      chain: forkView(),
    });
    expect(assembled.transactions.slice(0, -1)).toEqual([a1, b1]);
    const reasons = assembled.skipped.map((s) => [s.transaction, s.error.code]);
    expect(reasons).toEqual([
      [a2, NativeContractErrorCode.UNAVAILABLE],
      [b2, NativeContractErrorCode.UNAVAILABLE],
      [b3, "TX_INVALID_NONCE_MISMATCH"],
      [a3, "TX_INVALID_NONCE_MISMATCH"],
    ]);
    expectBridge(assembled.skipped[0]?.error as NativeContractUnavailableError);
    expect(assembled.skipped[0]?.reason).toBe(assembled.skipped[0]?.error.message);

    // The block is the one a cold execution of what it includes gives.
    const executed = await chain.executor.execute({
      block: chain.context(),
      transactions: assembled.transactions,
      parentStateRoot: parent.stateRoot,
      chain: forkView(),
    });
    expect(bytesToHex(executed.stateRoot)).toBe(bytesToHex(assembled.result.stateRoot));
    expect(executed.gasUsed).toBe(assembled.result.gasUsed);
  });

  it("executing a block that holds such a transaction fails with the error", async () => {
    const tx = bob.sign({to: BRIDGE, nonce: await nonceOf(bob)});
    const block = chain.context();
    const run = chain.executor.execute({
      block,
      transactions: [tx, createRemascTransaction(block.number)],
      parentStateRoot: chain.head.stateRoot,
      chain: forkView(),
    });
    expectBridge(await unavailable(run));
  });
});

describe("on a chain that is not a fork", () => {
  it("secp256k1 addition runs, direct or internal, on this chain and on a fork", async () => {
    for (const view of [chain.view(), forkView()]) {
      // Empty input is the point at infinity twice: 64 zero bytes.
      const direct: CallResult = await chain.executor.call(input(SECP256K1_ADD, new Uint8Array(0), 0n, view));
      expect([direct.status, bytesToHex(direct.returnValue)]).toEqual([true, "00".repeat(64)]);
      // Two frames down, the relay's one word is (1, 0), not a point of the curve: the call fails, where an
      // ordinary account would succeed.
      const nested = relayData("nested(address,address)", other, SECP256K1_ADD);
      const relayed = await chain.executor.call(input(relay, nested, 0n, view));
      expect([relayed.status, wordAt(relayed.returnValue, 0), wordAt(relayed.returnValue, 1)]).toEqual([true, 0n, 0n]);
    }
  });

  it("assembly includes a transaction to a native contract", async () => {
    const tx = alice.sign({to: BRIDGE, value: 1n, nonce: await nonceOf(alice)});
    const assembled = await chain.executor.assembleBlock({
      block: chain.context(),
      candidates: [tx],
      parentStateRoot: chain.head.stateRoot,
      chain: chain.view(),
    });
    expect([assembled.transactions[0], assembled.skipped]).toEqual([tx, []]);
  });
});

/** The signer's nonce at the head (assembly tests sign transactions that no block connects). */
async function nonceOf(signer: Signer): Promise<bigint> {
  return (await chain.account(signer.address))?.nonce ?? 0n;
}

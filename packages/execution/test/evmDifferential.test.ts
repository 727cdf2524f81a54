/**
 * The patched @ethereumjs/evm (patches/, docs/dependencies.md §7) against the stock 10.1.3 (the
 * `evm-stock` alias, which patch-package does not touch): the same corpus run through both, with the
 * node's gas profile, precompiles and preemption, must give identical return data, gas, refunds,
 * logs, errors, created addresses and state roots; with a step listener, identical steps too.
 */
import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {fileURLToPath} from "node:url";
import type {Common} from "@ethereumjs/common";
import {createEVM, type EVM, type EVMOpts, type EVMResult, type InterpreterStep} from "@ethereumjs/evm";
import {createMPT} from "@ethereumjs/mpt";
import {Caches, MerkleStateManager} from "@ethereumjs/statemanager";
import {Account, Address, bytesToHex, createAddressFromString, hexToBytes} from "@ethereumjs/util";
import {getChainspec} from "@xchain/chainspec";
import {compileSolidity, vectorsDir} from "@xchain/test-utils";
import {createEVM as createStockEVM} from "evm-stock";
import {describe, expect, it} from "vitest";
import type {Preemption} from "../src/calls/preemption.ts";
import {createChainCommon, profileParams} from "../src/common.ts";
import {evmBlock} from "../src/evm.ts";
import {gasProfileAt} from "../src/gas/profile.ts";
import type {MessageTracker} from "../src/native/dispatch/adapter.ts";
import {createNativeSession} from "../src/native/dispatch/session.ts";
import {type PreemptionSlot, preemptibleOpcodes} from "../src/preemptibleOpcodes.ts";
import {randomBytes, randomProgram, seededRandom} from "./support/randomBytecode.ts";

const SEED = 0x5eed_0015;
const RANDOM_PROGRAMS = 120;
const CALLS_PER_CONTRACT = 4;
const GAS = 300_000n;

const root = fileURLToPath(new URL("../../../", import.meta.url));
const chainspec = getChainspec("regtest");
const profile = gasProfileAt(chainspec, 0);
const caller = new Address(new Uint8Array(20).fill(0xca));
const block = evmBlock({
  number: 7,
  timestamp: 1_700_000_000,
  coinbase: new Uint8Array(20).fill(0xcb),
  difficulty: 1_000n,
  gasLimit: 6_800_000n,
  minimumGasPrice: 3n,
});

/** Text of a file of an installed copy of the EVM. */
function evmSource(packageDir: string, file: string): string {
  return readFileSync(join(root, "node_modules", packageDir, "dist/esm", file), "utf8");
}

/** One side of the comparison: an EVM over its own state, with a preemption that pauses often. */
interface Side {
  evm: EVM;
  state: MerkleStateManager;
}

async function side(create: (opts: EVMOpts) => Promise<EVM>): Promise<Side> {
  const common: Common = createChainCommon(chainspec);
  const state = new MerkleStateManager({trie: await createMPT({useKeyHashing: true}), common, caches: new Caches()});
  // Every third preemption point answers with a promise: the gas functions' asynchronous path.
  let points = 0;
  const pausing = {point: () => (++points % 3 === 0 ? Promise.resolve() : undefined)};
  const slot: PreemptionSlot = {current: pausing as unknown as Preemption};
  const evmCommon = common.copy();
  const messages: MessageTracker = {current: undefined};
  const evm = await create({
    common: evmCommon,
    params: profileParams(profile),
    stateManager: state,
    customOpcodes: preemptibleOpcodes(
      profile.opcodes(common, {selfDestructed: new Set(), native: createNativeSession(chainspec)}),
      common,
      slot,
    ),
    customPrecompiles: profile.precompiles(common, messages),
  });
  evm.events.on("beforeMessage", (message) => {
    messages.current = message;
  });
  await state.putAccount(caller, new Account(0n, 10n ** 24n));
  return {evm, state};
}

// The stock copy's types are those of another copy of the package: the same shapes, other classes.
const createStock = (opts: EVMOpts) =>
  createStockEVM(opts as unknown as Parameters<typeof createStockEVM>[0]) as unknown as Promise<EVM>;

/** What must be identical: everything a caller of `runCall` can observe. */
function observed(result: EVMResult, stateRoot: Uint8Array) {
  const exec = result.execResult;
  return {
    returnValue: bytesToHex(exec.returnValue),
    gasUsed: exec.executionGasUsed,
    gasLeft: exec.gas,
    gasRefund: exec.gasRefund,
    error: exec.exceptionError?.error,
    logs: (exec.logs ?? []).map(([address, topics, data]) => [
      bytesToHex(address),
      topics.map(bytesToHex),
      bytesToHex(data),
    ]),
    createdAddress: result.createdAddress?.toString(),
    selfdestruct: [...(exec.selfdestruct?.keys() ?? [])].sort(),
    stateRoot: bytesToHex(stateRoot),
  };
}

type Step = [number, string, bigint, bigint | undefined, string];

type Outcome = ReturnType<typeof observed> | {thrown: string};

async function run(s: Side, call: {to?: Address; data: Uint8Array; value: bigint}, steps?: Step[]): Promise<Outcome> {
  const onStep = (step: InterpreterStep) => {
    steps?.push([step.pc, step.opcode.name, step.gasLeft, step.opcode.dynamicFee, step.stack.join(",")]);
  };
  if (steps) s.evm.events.on("step", onStep);
  try {
    const result = await s.evm.runCall({caller, origin: caller, gasLimit: GAS, gasPrice: 3n, block, ...call});
    return observed(result, await s.state.getStateRoot());
  } catch (error) {
    // Not an EVM error (a bug, or a missing input): both copies must throw the same.
    return {thrown: String(error)};
  } finally {
    s.evm.events.off("step", onStep);
  }
}

/** How many outcomes of each kind the corpus produced, so that it cannot pass by failing everything alike. */
const tally = new Map<string, number>();
function count(outcome: Outcome, steps: number): void {
  const kinds =
    "thrown" in outcome
      ? ["thrown"]
      : [
          outcome.error?.replace(/ at .*/, "") ?? "success",
          ...(outcome.logs.length > 0 ? ["logs"] : []),
          ...(steps > 0 ? ["traced"] : []),
        ];
  for (const kind of kinds) tally.set(kind, (tally.get(kind) ?? 0) + 1);
}

/** Runs `call` through both sides (twice when `traced`: also with a step listener); asserts equality. */
async function both(
  sides: [Side, Side],
  call: {to?: Address; data: Uint8Array; value: bigint},
  traced = false,
): Promise<Outcome> {
  const [patched, stock] = sides;
  const patchedSteps: Step[] = [];
  const stockSteps: Step[] = [];
  const a = await run(patched, call, traced ? patchedSteps : undefined);
  const b = await run(stock, call, traced ? stockSteps : undefined);
  expect(a).toEqual(b);
  expect(patchedSteps).toEqual(stockSteps);
  count(a, patchedSteps.length);
  return a;
}

/** The PUSH4 values of `code`: likely function selectors. */
function selectors(code: Uint8Array): Uint8Array[] {
  const found: Uint8Array[] = [];
  for (let i = 0; i < code.length; i++) {
    const op = code[i] as number;
    if (op === 0x63) found.push(code.subarray(i + 1, i + 5));
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return found;
}

/** Deploys `initcode` on both sides, then calls the result with selectors of its code and random words. */
async function deployAndCall(sides: [Side, Side], initcode: Uint8Array, next: () => number): Promise<void> {
  const created = await both(sides, {data: initcode, value: 0n});
  if ("thrown" in created || created.createdAddress === undefined || created.error !== undefined) return;
  const to = createAddressFromString(created.createdAddress);
  const code = await sides[0].state.getCode(to);
  const found = selectors(code);
  for (let i = 0; i < CALLS_PER_CONTRACT; i++) {
    const selector = found.length > 0 ? (found[next() % found.length] as Uint8Array) : randomBytes(next, 4);
    const words = Array.from({length: next() % 4}, () =>
      next() % 2 === 0 ? new Uint8Array(32).fill(0).fill(next() & 0xff, 31) : randomBytes(next, 32),
    );
    const data = Uint8Array.from([...selector, ...words.flatMap((w) => [...w])]);
    await both(sides, {to, data, value: next() % 4 === 0 ? 1n : 0n}, i === 0);
  }
}

const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Token {
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor() { balanceOf[msg.sender] = 1e24; }
  function transfer(address to, uint256 value) external returns (bool) {
    balanceOf[msg.sender] -= value; balanceOf[to] += value; emit Transfer(msg.sender, to, value); return true;
  }
  function approve(address spender, uint256 value) external returns (bool) { allowance[msg.sender][spender] = value; return true; }
  function sum(uint256 n) external pure returns (uint256 s) { for (uint256 i = 0; i < n % 300; i++) s += i * i; }
  function spawn(uint256 salt) external returns (address) { return address(new Child{salt: bytes32(salt)}()); }
  function hash(bytes calldata b) external pure returns (bytes32) { return keccak256(b); }
}
contract Child { function die() external { selfdestruct(payable(msg.sender)); } }
`;

describe("patched @ethereumjs/evm against stock 10.1.3", () => {
  it("the stock copy is unpatched and the patched copy is patched", () => {
    expect(evmSource("evm-stock", "evm.js")).toContain("...interpreterRes.runState,");
    expect(evmSource("evm-stock", "interpreter.js")).not.toContain("_runStepFast");
    expect(evmSource("@ethereumjs/evm", "evm.js")).not.toContain("...interpreterRes.runState,");
    expect(evmSource("@ethereumjs/evm", "interpreter.js")).toContain("_runStepFast");
    expect(evmSource("evm-stock", "memory.js")).toContain("new Uint8Array(CONTAINER_SIZE)");
    expect(evmSource("@ethereumjs/evm", "memory.js")).toContain("NO_MEMORY");
  });

  it("the rskj fixtures' contracts and a compiled token: deployed and called with random data", async () => {
    const sides: [Side, Side] = [await side(createEVM), await side(createStock)];
    const next = seededRandom(SEED);
    const fixtures = join(vectorsDir, "rskj-gas-fixtures");
    const initcodes = readdirSync(fixtures)
      .flatMap((file) => readFileSync(join(fixtures, file), "utf8").match(/^\s*data [0-9a-fA-F]{40,}$/gm) ?? [])
      .map((line) => hexToBytes(`0x${line.trim().slice(5)}`));
    expect(initcodes.length).toBeGreaterThan(20);
    const compiled = compileSolidity(TOKEN);
    for (const contract of Object.values(compiled)) initcodes.push(contract.bytecode);
    tally.clear();
    for (const initcode of initcodes) await deployAndCall(sides, initcode, next);
    for (const kind of ["success", "revert", "logs", "traced"]) expect(tally.get(kind) ?? 0, kind).toBeGreaterThan(0);
  }, 120_000);

  it("words at the conversion boundaries through MSTORE, MLOAD, SLOAD, SSTORE and LOG", async () => {
    const sides: [Side, Side] = [await side(createEVM), await side(createStock)];
    const to = new Address(new Uint8Array(20).fill(0x77));
    const values = [
      0n,
      1n,
      255n,
      256n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 64n - 1n,
      2n ** 64n,
      2n ** 255n + 7n,
      2n ** 256n - 1n,
    ];
    const push32 = (v: bigint) => [0x7f, ...hexToBytes(`0x${v.toString(16).padStart(64, "0")}`)];
    // Per value: MSTORE it at 0, SSTORE MLOAD(0) under it as key, SLOAD it back, LOG1 it as topic.
    const code = Uint8Array.from([
      ...values.flatMap((v) => [
        ...[...push32(v), 0x60, 0, 0x52],
        ...[0x60, 0, 0x51, ...push32(v), 0x55],
        ...[...push32(v), 0x54, 0x60, 0x20, 0x52],
        ...[...push32(v), 0x60, 0x40, 0x60, 0, 0xa1],
      ]),
      ...[0x60, 0x40, 0x60, 0, 0xf3],
    ]);
    for (const s of sides) await s.state.putCode(to, code);
    for (const traced of [false, true]) {
      const outcome = await both(sides, {to, data: new Uint8Array(0), value: 0n}, traced);
      expect("logs" in outcome && outcome.logs.length).toBe(values.length);
    }
  });

  it("memory grown across 1 KiB, 2 KiB and past 8 KiB: stores, calldata, a precompile's output, LOG and RETURN", async () => {
    const sides: [Side, Side] = [await side(createEVM), await side(createStock)];
    const to = new Address(new Uint8Array(20).fill(0x78));
    const word = Array.from({length: 32}, (_, i) => 0xa0 + i);
    const code = Uint8Array.from([
      // MSTORE8 0x11 at 1023, then a word across the 1 KiB line (0x3f0..0x410).
      ...[0x60, 0x11, 0x61, 0x03, 0xff, 0x53],
      ...[0x7f, ...word, 0x61, 0x03, 0xf0, 0x52],
      // CALLDATACOPY the calldata to 0x7f0, across the 2 KiB line.
      ...[0x36, 0x60, 0x00, 0x61, 0x07, 0xf0, 0x37],
      // CALL the identity precompile: 64 bytes from 0x3e0 into 0x2000, past 8 KiB.
      ...[0x60, 0x40, 0x61, 0x20, 0x00, 0x60, 0x40, 0x61, 0x03, 0xe0, 0x60, 0x00, 0x60, 0x04, 0x5a, 0xf1, 0x50],
      // LOG0 96 bytes from 0x3d0, then RETURN 0x3e0..0x2040.
      ...[0x60, 0x60, 0x61, 0x03, 0xd0, 0xa0],
      ...[0x61, 0x1c, 0x60, 0x61, 0x03, 0xe0, 0xf3],
    ]);
    for (const s of sides) await s.state.putCode(to, code);
    const data = Uint8Array.from({length: 100}, (_, i) => i + 1);
    for (const traced of [false, true]) {
      const outcome = await both(sides, {to, data, value: 0n}, traced);
      expect("returnValue" in outcome && outcome.returnValue.length).toBe(2 + 2 * 0x1c60);
      expect("logs" in outcome && outcome.logs.length).toBe(1);
    }
  });

  it("random programs with random calldata", async () => {
    const sides: [Side, Side] = [await side(createEVM), await side(createStock)];
    const next = seededRandom(SEED + 1);
    const addresses = Array.from(
      {length: 6},
      (_, i) => new Address(Uint8Array.from({length: 20}, (_, k) => (k === 19 ? 0x40 + i : 0))),
    );
    // Precompiles 1–9 and the programs' own addresses are what CALLs and BALANCEs aim at.
    const targets = {
      addresses: [
        ...addresses.map((a) => a.bytes),
        ...Array.from(
          {length: 9},
          (_, i) => new Address(Uint8Array.from({length: 20}, (_, k) => (k === 19 ? i + 1 : 0))).bytes,
        ),
      ],
    };
    tally.clear();
    for (let i = 0; i < RANDOM_PROGRAMS; i++) {
      const to = addresses[i % addresses.length] as Address;
      const code =
        i % 10 === 9 ? randomBytes(next, 1 + (next() % 200)) : randomProgram(next, 20 + (next() % 60), targets);
      for (const s of sides) {
        await s.state.putCode(to, code);
        await s.state.putStorage(to, new Uint8Array(32).fill(1, 31), Uint8Array.of(0x2a));
      }
      const data = randomBytes(next, next() % 80);
      await both(sides, {to, data, value: next() % 3 === 0 ? 5n : 0n}, i % 4 === 0);
    }
    for (const kind of ["success", "out of gas", "invalid JUMP", "invalid opcode", "stack underflow", "logs", "traced"])
      expect(tally.get(kind) ?? 0, kind).toBeGreaterThan(0);
  }, 120_000);
});

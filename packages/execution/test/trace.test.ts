/**
 * `BlockExecutor.trace`: a block re-executed for a tracer reports every frame with the opcode that
 * entered it (call, staticcall, delegatecall, create2, a precompile, a revert inside a successful
 * transaction), self-destructs, steps and the REMASC transaction; its outcomes are import's, and
 * nothing is written.
 */
import {getChainspec} from "@xchain/chainspec";
import {createRemascTransaction} from "@xchain/primitives";
import {compileSolidity, TRACE_CHILD_SOURCE} from "@xchain/test-utils";
import {bytesToHex} from "@xchain/utils";
import {beforeAll, describe, expect, it} from "vitest";
import type {ExecuteBlockInput, ExecutionTracer, FrameEnd, FrameStart} from "../src/index.ts";
import {calldata} from "./support/abi.ts";
import {ETHER, Signer} from "./support/accounts.ts";
import {type TestBlock, TestChain} from "./support/chain.ts";

const SOURCE = `${TRACE_CHILD_SOURCE}
contract Parent {
    function run(address c) external returns (uint256 r) {
        r = Child(c).ping(1);
        (bool ok, ) = c.staticcall(abi.encodeWithSignature("count()"));
        (ok, ) = c.call(abi.encodeWithSignature("fail()"));
        (ok, ) = c.delegatecall(abi.encodeWithSignature("ping(uint256)", 3));
        (ok, ) = address(4).staticcall("hi");
        Child made = new Child{salt: bytes32(uint256(1))}();
        made.bye(payable(msg.sender));
    }
}
`;

const chainspec = getChainspec("regtest");
const alice = new Signer("alice");
let chain: TestChain;
let parent: TestBlock;
let input: ExecuteBlockInput;
let traced: TestBlock;

/** Records what a tracer hears, in order. */
function recorder() {
  const events: string[] = [];
  const starts: FrameStart[] = [];
  const ends: FrameEnd[] = [];
  let steps = 0;
  const tracer: ExecutionTracer = {
    transactionStart: (tx) => {
      events.push(`tx ${tx.index}`);
    },
    frameStart: (frame) => {
      starts.push(frame);
      events.push(`${"  ".repeat(frame.depth)}${frame.kind}${frame.precompile ? " precompile" : ""}`);
    },
    frameEnd: (frame) => {
      ends.push(frame);
      if (frame.error) events.push(`error ${frame.error}`);
    },
    step: () => {
      steps++;
    },
    selfDestruct: () => events.push("selfdestruct"),
    remasc: (_tx, payments) => events.push(`remasc ${payments.map((p) => p.value).join(",") || "none"}`),
    transactionEnd: (tx, outcome) => {
      events.push(`end ${tx.index} ${outcome.status}`);
    },
  };
  return {tracer, events, starts, ends, steps: () => steps};
}

beforeAll(async () => {
  const {Child, Parent} = compileSolidity(SOURCE);
  chain = await TestChain.create(chainspec, [{address: alice.address, balance: ETHER}]);
  const deployed = await chain.execute([alice.sign({data: Child!.bytecode}), alice.sign({data: Parent!.bytecode})]);
  const [child, parentContract] = (deployed.result?.outcomes ?? []).map((o) => o.contractAddress as Uint8Array);
  parent = chain.head;
  const block = chain.context();
  const transactions = [
    alice.sign({to: parentContract, data: calldata(Parent!.selectors["run(address)"]!, child!), gasLimit: 3_000_000n}),
    alice.sign({to: new Uint8Array(20).fill(0x77), value: 1n}),
    createRemascTransaction(block.number),
  ];
  input = {block, transactions, parentStateRoot: parent.stateRoot, chain: chain.view(parent)};
  traced = await chain.execute(transactions.slice(0, -1));
});

describe("BlockExecutor.trace", () => {
  it("reports each frame with the opcode that entered it, self-destructs and REMASC", async () => {
    const {tracer, events, starts} = recorder();
    await chain.executor.trace(input, tracer);
    expect(events).toEqual([
      "tx 0",
      "call",
      "  call",
      "  staticcall",
      "  call",
      "error revert",
      "  delegatecall",
      "  staticcall precompile",
      "  create2",
      "  call",
      "selfdestruct",
      "end 0 true",
      "tx 1",
      "call",
      "end 1 true",
      "tx 2",
      "remasc none",
      "end 2 true",
    ]);
    // The delegatecall is made by the parent contract, to the child's code.
    const delegate = starts.find((f) => f.kind === "delegatecall") as FrameStart;
    expect(bytesToHex(delegate.from)).toBe(bytesToHex(starts[0]?.to as Uint8Array));
    expect(bytesToHex(delegate.to as Uint8Array)).toBe(bytesToHex(starts[1]?.to as Uint8Array));
    // Each frame keeps its own calldata, not a view of its caller's memory overwritten since.
    expect(bytesToHex(starts[1]?.input as Uint8Array)).toBe(
      bytesToHex(calldata(compileSolidity(SOURCE).Child!.selectors["ping(uint256)"]!, 1n)),
    );
  });

  it("gives import's outcomes, and writes nothing", async () => {
    const writes = chain.store.size;
    const outcomes = await chain.executor.trace(input, {});
    expect(outcomes.map((o) => o.gasUsed)).toEqual(traced.result?.outcomes.map((o) => o.gasUsed));
    expect(outcomes.map((o) => o.status)).toEqual(traced.result?.outcomes.map((o) => o.status));
    expect(chain.store.size).toBe(writes);
  });

  it("traces one transaction, the created address and the steps when asked", async () => {
    const {tracer, events, ends, steps} = recorder();
    const outcomes = await chain.executor.trace(input, tracer, {only: 0});
    expect(outcomes).toHaveLength(1);
    expect(events[0]).toBe("tx 0");
    expect(events.at(-1)).toBe("end 0 true");
    expect(ends.filter((e) => e.createdAddress !== undefined)).toHaveLength(1);
    expect(ends.at(-1)?.ranCode).toBe(true);
    expect(steps()).toBeGreaterThan(100);
    const transfer = recorder();
    await chain.executor.trace(input, transfer.tracer, {only: 1});
    expect(transfer.ends[0]?.ranCode).toBe(false);
    expect(transfer.steps()).toBe(0);
  });
});

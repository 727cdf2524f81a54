/**
 * trace_transaction, trace_block and trace_filter over a real chain (docs/protocol/traces.md): every
 * frame type, a nested revert and an out-of-gas call inside a successful transaction, a precompile
 * call (no entry), a codeless account, failed creates (no entry), a value transfer, REMASC with its
 * payments (docs/protocol/native-contracts.md §11.3), and the bad inputs.
 */
import type {Block, Transaction} from "@xchain/primitives";
import {compileSolidity, TRACE_CHILD_SOURCE} from "@xchain/test-utils";
import {bigIntToFixedBytes, concatBytes, toData, toQuantity} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {createdContractAddress} from "../../../src/format/receipt.ts";
import {defaultRpcOptions} from "../../../src/options.ts";
import {alice, bob, carol, dave} from "../../support/fixture.ts";
import {signTx, TestNode} from "../../support/node.ts";

const SOURCE = `${TRACE_CHILD_SOURCE}
contract Bad {
  constructor() { revert(); }
}
contract Parent {
  function run(address c) external returns (uint256 r) {
    r = Child(c).ping(1);
    (bool ok, ) = c.staticcall(abi.encodeWithSignature("count()"));
    (ok, ) = c.call(abi.encodeWithSignature("fail()"));
    (ok, ) = c.call{gas: 50000}(abi.encodeWithSignature("burn()"));
    (ok, ) = c.delegatecall(abi.encodeWithSignature("ping(uint256)", 3));
    bytes memory data = abi.encodeWithSignature("ping(uint256)", 5);
    assembly { ok := callcode(gas(), c, 0, add(data, 32), mload(data), 0, 0) }
    (ok, ) = address(4).staticcall("hi");
    (ok, ) = address(0x1234).call("");
    Child made = new Child{salt: bytes32(uint256(1))}();
    new Child();
    try new Bad() {} catch {}
    made.bye(payable(msg.sender));
  }
}
`;

const MAX_TRACES = 50;
const MAX_RANGE = 15;
const COINBASE = new Uint8Array(20).fill(0xcb);
const word = (value: bigint | Uint8Array) =>
  typeof value === "bigint" ? bigIntToFixedBytes(value, 32) : concatBytes(new Uint8Array(12), value);

let node: TestNode;
let pingSelector: Uint8Array;
let child: Uint8Array;
let parent: Uint8Array;
let run: Transaction;
let transfer: Transaction;
let created: Transaction;
let feeBlock: Block;
let payoutBlock: Block;
let sideTx: Transaction;
let sideBlock: Block;
// biome-ignore lint/suspicious/noExplicitAny: traces are read as JSON
let runTraces: any[];

beforeAll(async () => {
  node = await TestNode.start({
    rpc: {trace: {...defaultRpcOptions.trace, maxTracesPerRequest: MAX_TRACES, maxBlockRange: MAX_RANGE}},
  });
  const {Child, Parent} = compileSolidity(SOURCE);
  pingSelector = Child!.selectors["ping(uint256)"] as Uint8Array;
  child = createdContractAddress(alice.address, 0n);
  parent = createdContractAddress(alice.address, 1n);
  await node.mine({
    transactions: [
      signTx(alice, {nonce: 0n, gasLimit: 1_000_000n, data: Child!.bytecode}),
      signTx(alice, {nonce: 1n, gasLimit: 3_000_000n, data: Parent!.bytecode}),
    ],
  });
  run = signTx(alice, {
    nonce: 2n,
    to: parent,
    gasLimit: 3_000_000n,
    gasPrice: 1n,
    data: concatBytes(Parent!.selectors["run(address)"] as Uint8Array, word(child)),
  });
  transfer = signTx(bob, {nonce: 0n, to: dave.address, value: 5n, gasPrice: 1n});
  created = signTx(carol, {nonce: 0n, gasLimit: 1_000_000n, data: Child!.bytecode});
  feeBlock = await node.mine({transactions: [run, transfer, created], coinbase: COINBASE});
  // Block 12's REMASC puts block 2's fees in its pool; block 15's pays a fifth of the pool, to block 5's
  // miner among others (regtest: maturity 10, syntheticSpan 5).
  for (let i = 0; i < 13; i++) payoutBlock = await node.mine();
  // A block off the canonical chain.
  sideTx = signTx(dave, {nonce: 0n, to: carol.address, value: 1n});
  sideBlock = await node.mine({parent: feeBlock, transactions: [sideTx]});
  runTraces = await node.result("trace_transaction", [toData(run.hash())]);
}, 60_000);
afterAll(() => node.close());

describe("trace_transaction", () => {
  it("writes every frame type depth-first, leaving out precompile calls and failed creates", () => {
    expect(runTraces.map((t) => [t.type, t.action.callType ?? t.action.creationMethod, t.traceAddress])).toEqual([
      ["call", "call", []],
      ["call", "call", [0]],
      ["call", "staticcall", [1]],
      ["call", "call", [2]],
      ["call", "call", [3]],
      ["call", "delegatecall", [4]],
      ["call", "callcode", [5]],
      ["call", "call", [6]],
      ["create", "create2", [7]],
      ["create", "create", [8]],
      ["call", "call", [9]],
      ["suicide", undefined, [9, 0]],
    ]);
    expect(runTraces.map((t) => t.subtraces)).toEqual([10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    for (const trace of runTraces) {
      expect(trace.blockNumber).toBe(2);
      expect(trace.transactionPosition).toBe(0);
      expect(trace.transactionHash).toBe(toData(run.hash()));
      expect(trace.blockHash).toBe(toData(feeBlock.hash()));
    }
  });

  it("has rskj's key order and the root's gas limit, receipt gasUsed and real output", async () => {
    const receipt = await node.result("eth_getTransactionReceipt", [toData(run.hash())]);
    const [root] = runTraces;
    expect(Object.keys(root)).toEqual([
      "action",
      "blockHash",
      "blockNumber",
      "transactionHash",
      "transactionPosition",
      "type",
      "subtraces",
      "traceAddress",
      "result",
    ]);
    expect(root).toEqual({
      action: {
        callType: "call",
        from: toData(alice.address),
        to: toData(parent),
        gas: toQuantity(3_000_000n),
        input: toData(run.data),
        value: "0x0",
      },
      blockHash: toData(feeBlock.hash()),
      blockNumber: 2,
      transactionHash: toData(run.hash()),
      transactionPosition: 0,
      type: "call",
      subtraces: 10,
      traceAddress: [],
      result: {gasUsed: receipt.gasUsed, output: toData(word(2n))},
    });
  });

  it("gives each internal call its own calldata and output, and errors with result null", () => {
    const [, ping, , fail, burn, delegate, callcode, codeless] = runTraces;
    expect(ping.action).toMatchObject({from: toData(parent), to: toData(child), value: "0x0"});
    expect(ping.action.input.startsWith(toData(pingSelector))).toBe(true);
    expect(ping.result.output).toBe(toData(word(2n)));
    expect(fail).toMatchObject({result: null, error: "Reverted"});
    expect(Object.keys(fail).slice(-2)).toEqual(["result", "error"]);
    expect(burn).toMatchObject({result: null, error: "Out of gas"});
    expect(burn.action.gas).toBe(toQuantity(50_000n));
    expect(delegate.action).toMatchObject({from: toData(parent), to: toData(child)});
    expect(delegate.result.output).toBe(toData(word(4n)));
    expect(callcode.action).toMatchObject({from: toData(parent), to: toData(child)});
    expect(codeless.action.to).toBe(`0x${"00".repeat(18)}1234`);
    expect(codeless.result).toEqual({gasUsed: "0x0", output: "0x"});
  });

  it("writes creates with creationMethod and the deployed code, and the self-destruct", async () => {
    const [create2, create, bye, suicide] = runTraces.slice(8);
    const runtime = await node.result("eth_getCode", [toData(child), "latest"]);
    expect(create2.action).toMatchObject({from: toData(parent), value: "0x0", creationMethod: "create2"});
    expect(Object.keys(create2.action)).toEqual(["from", "gas", "init", "value", "creationMethod"]);
    expect(create2.result.code).toBe(runtime);
    expect(Object.keys(create2.result)).toEqual(["gasUsed", "code", "address"]);
    expect(create.result.address).toBe(toData(createdContractAddress(parent, 2n)));
    expect(bye.action.to).toBe(create2.result.address);
    expect(suicide).toEqual({
      action: {address: create2.result.address, refundAddress: toData(alice.address), balance: "0x0"},
      blockHash: toData(feeBlock.hash()),
      blockNumber: 2,
      transactionHash: toData(run.hash()),
      transactionPosition: 0,
      type: "suicide",
      subtraces: 0,
      traceAddress: [9, 0],
      result: null,
    });
  });

  it("writes a value transfer as one call with gas 0x0 and the receipt's gasUsed", async () => {
    expect(await node.result("trace_transaction", [toData(transfer.hash())])).toEqual([
      {
        action: {
          callType: "call",
          from: toData(bob.address),
          to: toData(dave.address),
          gas: "0x0",
          input: "0x",
          value: "0x5",
        },
        blockHash: toData(feeBlock.hash()),
        blockNumber: 2,
        transactionHash: toData(transfer.hash()),
        transactionPosition: 1,
        type: "call",
        subtraces: 0,
        traceAddress: [],
        result: {gasUsed: toQuantity(21_000n), output: "0x"},
      },
    ]);
  });

  it("writes a transaction's own create without creationMethod", async () => {
    const [root] = await node.result("trace_transaction", [toData(created.hash())]);
    expect(root.type).toBe("create");
    expect(Object.keys(root.action)).toEqual(["from", "gas", "init", "value"]);
    expect(root.action.gas).toBe(toQuantity(1_000_000n));
    expect(root.result.address).toBe(toData(createdContractAddress(carol.address, 0n)));
  });

  it("is null for an unknown transaction and for one off the canonical chain", async () => {
    expect(await node.result("trace_transaction", [`0x${"ab".repeat(32)}`])).toBeNull();
    expect(await node.result("trace_transaction", [toData(sideTx.hash())])).toBeNull();
    expect((await node.error("trace_transaction", ["0x12"])).code).toBe(-32602);
  });
});

describe("trace_block", () => {
  it("lists the block's transactions in order, REMASC last, the same by number, tag and hash", async () => {
    const traces = await node.result("trace_block", ["0x2"]);
    expect(traces.slice(0, runTraces.length)).toEqual(runTraces);
    expect(traces.map((t: {transactionPosition: number}) => t.transactionPosition).slice(runTraces.length)).toEqual([
      1, 2, 3,
    ]);
    expect(await node.result("trace_block", [toData(feeBlock.hash())])).toEqual(traces);
    const head = await node.result("trace_block", ["latest"]);
    expect(await node.result("trace_block", ["PENDING"])).toEqual(head);
  });

  it("writes the REMASC transaction with one sub-call per payment, five from block 15 on", async () => {
    const remascTx = payoutBlock.transactions.at(-1) as Transaction;
    const paid = feeBlock.header.paidFees;
    expect(paid).toBeGreaterThan(0n);
    expect(payoutBlock.header.number).toBe(15);
    const entry = (action: object, traceAddress: number[], subtraces: number) => ({
      action: {callType: "call", ...action, gas: "0x0", input: "0x"},
      blockHash: toData(payoutBlock.hash()),
      blockNumber: 15,
      transactionHash: toData(remascTx.hash()),
      transactionPosition: 0,
      type: "call",
      subtraces,
      traceAddress,
      result: {gasUsed: "0x0", output: "0x"},
    });
    const remasc = "0x0000000000000000000000000000000001000008";
    const zero = `0x${"00".repeat(20)}`;
    // The pool holds block 2's fees: a fifth is paid, a fifth of that to RSK Labs, a hundredth of the
    // rest to the three federators (the remainder to the last), the rest to block 5's miner.
    const reward = paid / 5n;
    const labs = reward / 5n;
    const federation = (reward - labs) / 100n;
    const block5 = await node.result("eth_getBlockByNumber", ["0x5", false]);
    const payments = [
      ["0xdabadabadabadabadabadabadabadabadaba0001", labs],
      ["0x6b045752f4d650a510a353bbf7e52988331e7f5b", federation / 3n],
      ["0x85845342b0d5260d516d6da5280a7df9a96d1925", federation / 3n],
      ["0x138161cda86b55c0de1bc3a0adef974633c85fbe", federation / 3n + (federation % 3n)],
      [block5.miner, reward - labs - federation],
    ] as const;
    expect(await node.result("trace_block", [toQuantity(15)])).toEqual([
      entry({from: zero, to: remasc, value: "0x0"}, [], 5),
      ...payments.map(([to, value], i) => entry({from: remasc, to, value: toQuantity(value)}, [i], 0)),
    ]);
    const [unpaid] = await node.result("trace_block", ["0x3"]);
    expect(unpaid.subtraces).toBe(0);
  });

  it("traces a stored block off the canonical chain by hash", async () => {
    const traces = await node.result("trace_block", [toData(sideBlock.hash())]);
    expect(traces[0].transactionHash).toBe(toData(sideTx.hash()));
  });

  it("is [] for genesis, null for an unknown block, -32602 for a bad number", async () => {
    expect(await node.result("trace_block", ["earliest"])).toEqual([]);
    expect(await node.result("trace_block", ["0x0"])).toEqual([]);
    expect(await node.result("trace_block", ["0x999"])).toBeNull();
    expect(await node.result("trace_block", [`0x${"12".repeat(32)}`])).toBeNull();
    const bad = await node.error("trace_block", ["0xzz"]);
    expect(bad).toMatchObject({code: -32602, message: "invalid argument 0 (block): invalid blocknumber 0xzz"});
    expect((await node.error("trace_block", ["0x1234567890abcdef1234"])).code).toBe(-32602);
    expect((await node.error("trace_block", [])).code).toBe(-32602);
  });
});

describe("trace_filter", () => {
  it("selects transactions by sender and recipient, with all their entries", async () => {
    const byAlice = await node.result("trace_filter", [
      {fromBlock: "0x2", toBlock: "0x2", fromAddress: [toData(alice.address)]},
    ]);
    expect(byAlice).toEqual(runTraces);
    const toDave = await node.result("trace_filter", [{fromBlock: "0x1", toAddress: toData(dave.address)}]);
    expect(toDave.map((t: {transactionHash: string}) => t.transactionHash)).toEqual([toData(transfer.hash())]);
    const both = await node.result("trace_filter", [
      {fromBlock: "0x1", fromAddress: [toData(bob.address)], toAddress: [toData(parent)]},
    ]);
    expect(both).toEqual([]);
    // Creations never match a recipient; an empty list selects any.
    const toNobody = await node.result("trace_filter", [
      {fromBlock: "0x1", fromAddress: toData(carol.address), toAddress: [toData(parent)]},
    ]);
    expect(toNobody).toEqual([]);
    const byCarol = await node.result("trace_filter", [
      {fromBlock: "0x1", fromAddress: toData(carol.address), toAddress: []},
    ]);
    expect(byCarol.map((t: {transactionHash: string}) => t.transactionHash)).toEqual([toData(created.hash())]);
  });

  it("skips `after` entries and returns at most `count`, in block order", async () => {
    const all = await node.result("trace_filter", [{fromBlock: "0x1", toBlock: "0x3"}]);
    const block2 = await node.result("trace_block", ["0x2"]);
    expect(all.filter((t: {blockNumber: number}) => t.blockNumber === 2)).toEqual(block2);
    expect(await node.result("trace_filter", [{fromBlock: "0x1", toBlock: "0x3", after: 3, count: 4}])).toEqual(
      all.slice(3, 7),
    );
    expect(await node.result("trace_filter", [{fromBlock: "0x1", toBlock: "0x3", after: "2", count: 0}])).toEqual([]);
    // Beyond the head: the head (block 15: REMASC and its five payments); a range past it: nothing.
    expect(await node.result("trace_filter", [{fromBlock: "0xf", toBlock: "0x100"}])).toHaveLength(6);
    expect(await node.result("trace_filter", [{fromBlock: "0x100", toBlock: "0x200"}])).toEqual([]);
  });

  it("answers the documented errors", async () => {
    const error = (filter: unknown) => node.error("trace_filter", [filter]);
    expect(await error(null)).toMatchObject({code: -32602, message: "Invalid trace_filter parameters."});
    expect(await error({count: MAX_TRACES + 1})).toMatchObject({
      code: -32602,
      message: `Count value too big. Maximum ${MAX_TRACES} traces allowed.`,
    });
    expect(await error({count: -1})).toMatchObject({code: -32602, message: "Count value cannot be negative."});
    expect(await error({after: -1})).toMatchObject({code: -32602, message: "After value cannot be negative."});
    expect(await error({after: MAX_TRACES + 1})).toMatchObject({
      code: -32602,
      message: `After value too big. Maximum ${MAX_TRACES} traces allowed.`,
    });
    expect(await error({fromBlock: "0x3", toBlock: "0x2"})).toMatchObject({
      code: -32602,
      message: "fromBlock cannot be greater than toBlock",
    });
    expect(await error({address: "0x00"})).toMatchObject({
      code: -32602,
      message:
        'Unrecognized field "address" (6 known properties: ["fromBlock", "toBlock", "fromAddress", "toAddress", "after", "count"])',
    });
    expect((await error({count: "0x10"})).code).toBe(-32602);
    expect((await error({fromAddress: ["0x12"]})).code).toBe(-32602);
    expect(await error({fromBlock: "0x0"})).toMatchObject({
      code: -32005,
      message: `trace_filter covers ${MAX_RANGE + 1} blocks; at most ${MAX_RANGE} (rpc.trace.maxBlockRange) at a time`,
    });
  });
});

describe("trace_filter over a small response limit", () => {
  it("stops at maxResponseBytes with -32011, and the node keeps answering", async () => {
    const small = await TestNode.start({rpc: {maxResponseBytes: 2_000}});
    try {
      for (let i = 0; i < 8; i++) await small.mine();
      const reply = await small.call("trace_filter", [{}]);
      expect(reply.error?.code).toBe(-32011);
      expect(await small.result("trace_filter", [{count: 1}])).toHaveLength(1);
    } finally {
      await small.close();
    }
  });
});

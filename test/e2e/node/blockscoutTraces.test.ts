// End-to-end: trace_block on a real node answers what Blockscout's Rootstock adapter reads when it
// indexes internal transactions (docs/protocol/traces.md): one trace_block per block with a hex
// number; a flat list whose per-transaction index restarts at every `traceAddress: []`;
// `blockNumber` and `transactionPosition` as JSON integers; call actions with callType, from, to,
// input, gas and value; create actions with from, gas, init and value; suicide actions with
// address, balance and refundAddress.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Child {
    uint256 public count;
    function ping() external returns (uint256) { count += 1; return count; }
    function bye(address payable to) external { selfdestruct(to); }
}
contract Factory {
    function run() external payable {
        Child child = new Child();
        child.ping();
        payable(address(uint160(0x77))).transfer(0);
        child.bye(payable(msg.sender));
    }
}`;

type Trace = {
  action: Record<string, unknown>;
  blockHash: string;
  blockNumber: unknown;
  transactionHash: string;
  transactionPosition: unknown;
  type: string;
  subtraces: unknown;
  traceAddress: unknown[];
  result: Record<string, unknown> | null;
  error?: string;
};

let node: RunningNode;
let blockNumber: number;
let from: string;

beforeAll(async () => {
  node = await startNode(["--miner.blockTimeMs", "0"]);
  from = (await rpc<string[]>(node.httpUrl, "eth_accounts"))[0] as string;
  const {Factory} = compileSolidity(SOURCE);
  const send = async (tx: Record<string, string>) => {
    const hash = await rpc<string>(node.httpUrl, "eth_sendTransaction", [{from, gasPrice: "0x0", ...tx}]);
    await rpc(node.httpUrl, "evm_mine");
    return waitForReceipt(node.httpUrl, hash);
  };
  const factory = (await send({data: bytesToPrefixedHex(Factory!.bytecode), gas: "0x200000"}))
    .contractAddress as string;
  const receipt = await send({
    to: factory,
    data: bytesToPrefixedHex(Factory!.selectors["run()"]!),
    gas: "0x2dc6c0",
  });
  expect(receipt.status).toBe("0x1");
  blockNumber = Number(receipt.blockNumber);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe("trace_block for Blockscout's Rootstock adapter", () => {
  it("gives the fields and types the adapter reads", async () => {
    const traces = await rpc<Trace[]>(node.httpUrl, "trace_block", [`0x${blockNumber.toString(16)}`]);
    expect(traces.length).toBeGreaterThan(2);
    let transactionIndex = -1;
    for (const trace of traces) {
      if (trace.traceAddress.length === 0) transactionIndex++;
      expect(trace.blockNumber).toBe(blockNumber);
      expect(Number.isInteger(trace.transactionPosition)).toBe(true);
      expect(trace.transactionPosition).toBe(transactionIndex);
      expect(Number.isInteger(trace.subtraces)).toBe(true);
      expect(trace.traceAddress.every((i) => Number.isInteger(i))).toBe(true);
      expect(trace.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(trace.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect("result" in trace).toBe(true);
      const keys = Object.keys(trace.action);
      if (trace.type === "call") {
        expect(keys).toEqual(expect.arrayContaining(["callType", "from", "to", "input", "gas", "value"]));
      } else if (trace.type === "create") {
        expect(keys).toEqual(expect.arrayContaining(["from", "gas", "init", "value"]));
      } else {
        expect(trace.type).toBe("suicide");
        expect(keys).toEqual(expect.arrayContaining(["address", "balance", "refundAddress"]));
      }
    }
    // The factory's transaction: a create, a call, a value transfer and a self-destruct below its root;
    // the block closes with the REMASC transaction.
    const types = traces.map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(["call", "create", "suicide"]));
    expect(traces.at(-1)?.action.to).toBe("0x0000000000000000000000000000000001000008");
  });
});

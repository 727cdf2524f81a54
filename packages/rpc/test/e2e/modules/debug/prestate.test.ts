/**
 * debug_trace* with prestateTracer: the accounts a transaction touched as they were before it
 * (sender, recipient, the slots it read and wrote, REMASC when it paid a fee), and with diffMode
 * what changed, before and after; earlier transactions of the block are part of the pre-state.
 */
import {compileSolidity} from "@xchain/test-utils";
import {bigIntToFixedBytes, concatBytes, keccak256, toData, toQuantity, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {createdContractAddress} from "../../../../src/format/receipt.ts";
import {cows, signTx, TestNode} from "../../../support/node.ts";

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Store {
  uint256 public a;
  uint256 public b;
  function set(uint256 x) external { a = x + b; }
}`;

const selector = (signature: string) => keccak256(utf8ToBytes(signature)).subarray(0, 4);
const [alice, bob] = [cows[0]!, cows[1]!];
const slot = (n: number) => toData(bigIntToFixedBytes(BigInt(n), 32));
const word = (n: number) => toData(bigIntToFixedBytes(BigInt(n), 32));
const lower = (address: Uint8Array) => toData(address);

let node: TestNode;
let store: Uint8Array;
let firstSet: string;
let secondSet: string;
let transfer: string;

beforeAll(async () => {
  node = await TestNode.start();
  const {Store} = compileSolidity(SOURCE);
  store = createdContractAddress(alice.address, 0n);
  await node.mine({transactions: [signTx(alice, {nonce: 0n, gasLimit: 1_000_000n, data: Store!.bytecode})]});
  const set = (nonce: bigint, x: number) =>
    signTx(alice, {
      nonce,
      to: store,
      gasLimit: 200_000n,
      data: concatBytes(selector("set(uint256)"), bigIntToFixedBytes(BigInt(x), 32)),
    });
  const txs = [set(1n, 7), set(2n, 9), signTx(bob, {nonce: 0n, to: alice.address, value: 5n, gasPrice: 1n})];
  [firstSet, secondSet, transfer] = txs.map((tx) => toData(tx.hash())) as [string, string, string];
  await node.mine({transactions: txs});
});

afterAll(() => node.close());

const trace = (hash: string, options: object) =>
  node.result("debug_traceTransaction", [hash, {tracer: "prestateTracer", ...options}]);

describe("prestateTracer", () => {
  it("gives the touched accounts and slots as they were before the transaction, earlier ones of the block included", async () => {
    const pre = await trace(secondSet, {});
    const aliceBefore = await node.result("eth_getBalance", [lower(alice.address), "0x1"]);
    expect(pre[lower(alice.address)]).toEqual({balance: aliceBefore, nonce: 2});
    // The first set(7) of the same block wrote slot 0 before this one ran.
    expect(pre[lower(store)].storage).toEqual({[slot(0)]: word(7), [slot(1)]: word(0)});
    expect(pre[lower(store)].code).toMatch(/^0x6080/);
    expect(pre[lower(store)].balance).toBe("0x0");
  });

  it("with diffMode gives what changed: slot 0 and the sender's nonce, not the untouched slot 1", async () => {
    const diff = await trace(firstSet, {tracerConfig: {diffMode: true}});
    expect(Object.keys(diff)).toEqual(["post", "pre"]);
    expect(diff.pre[lower(store)]).toEqual(expect.objectContaining({storage: {[slot(0)]: word(0)}}));
    expect(diff.post[lower(store)]).toEqual({storage: {[slot(0)]: word(7)}});
    expect(diff.post[lower(alice.address)]).toEqual({nonce: 2});
  });

  it("counts the fee's way to REMASC, and leaves unchanged accounts out of a diff", async () => {
    const pre = await trace(transfer, {});
    expect(Object.keys(pre)).toEqual(
      expect.arrayContaining([lower(bob.address), lower(alice.address), "0x0000000000000000000000000000000001000008"]),
    );
    const diff = await trace(transfer, {diffMode: true});
    expect(BigInt(diff.post[lower(alice.address)].balance) - BigInt(diff.pre[lower(alice.address)].balance)).toBe(5n);
    expect(diff.post[lower(bob.address)].nonce).toBe(1);
  });

  it("serves the block methods with one entry per transaction, REMASC included", async () => {
    const block = await node.result("debug_traceBlockByNumber", [toQuantity(2n), {tracer: "prestateTracer"}]);
    expect(block.map((entry: {txHash: string}) => entry.txHash).slice(0, 3)).toEqual([firstSet, secondSet, transfer]);
    expect(block).toHaveLength(4);
  });
});

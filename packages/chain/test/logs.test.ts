/** `getLogs` (docs/rpc.md §4.5): filter semantics, ranges, and a 2,000-block scan. */
import {Bucket, numberKey, WriteBatch} from "@xchain/db";
import {logsBloom} from "@xchain/primitives";
import {bytesToBigInt} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it, vi} from "vitest";
import {type Chain, defaultChainOptions} from "../src/index.ts";
import {ChainStore} from "../src/store/chainStore.ts";
import {queryLogs} from "../src/store/logQuery.ts";
import {emitter, INCREMENTED_TOPIC, incrementData, topic} from "./contracts.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx, type TestChain} from "./helpers.ts";

const [alice, bob] = [cows[0]!, cows[1]!];
let test: TestChain;
let chain: Chain;
let contract: Uint8Array;

// Block 1 deploys; block 2: alice increments (count 1); block 3: bob (2), alice (3).
beforeAll(async () => {
  test = await openChain();
  chain = test.chain;
  const builder = await newBuilder();
  const deploy = await builder.build({
    transactions: [signTx(alice, {nonce: 0n, gasLimit: 1_000_000n, data: emitter().bytecode})],
  });
  contract = deploy.assembled.result.outcomes[0]!.contractAddress!;
  const call = (from: typeof alice, nonce: bigint) =>
    signTx(from, {nonce, to: contract, gasLimit: 100_000n, data: incrementData(nonce)});
  const blocks = [
    deploy.block,
    await builder.buildBlock({transactions: [call(alice, 1n)]}),
    await builder.buildBlock({transactions: [call(bob, 0n), call(alice, 2n)]}),
  ];
  for (const block of blocks) await chain.importBlock(block.encode());
});

afterAll(cleanup);

async function counts(filter: Partial<Parameters<Chain["getLogs"]>[0]>): Promise<bigint[]> {
  const logs = await chain.getLogs({fromBlock: 0, toBlock: 100, ...filter});
  return logs.map((l) => bytesToBigInt(l.log.topics[2]!));
}

describe("getLogs", () => {
  it("matches addresses", async () => {
    expect(await counts({})).toEqual([1n, 2n, 3n]);
    expect(await counts({addresses: [contract]})).toEqual([1n, 2n, 3n]);
    expect(await counts({addresses: [alice.address]})).toEqual([]);
    expect(await counts({addresses: [alice.address, contract]})).toEqual([1n, 2n, 3n]);
  });

  it("matches topics by position: null is any, a set is any of it, an empty set is any", async () => {
    expect(await counts({topics: []})).toEqual([1n, 2n, 3n]);
    expect(await counts({topics: [INCREMENTED_TOPIC]})).toEqual([1n, 2n, 3n]);
    expect(await counts({topics: [null, topic(alice.address)]})).toEqual([1n, 3n]);
    expect(await counts({topics: [null, [topic(alice.address), topic(bob.address)]]})).toEqual([1n, 2n, 3n]);
    expect(await counts({topics: [[], topic(bob.address)]})).toEqual([2n]);
    expect(await counts({topics: [INCREMENTED_TOPIC, null, topic(2n)]})).toEqual([2n]);
    expect(await counts({topics: [topic(alice.address)]})).toEqual([]);
    // More positions than the logs have topics never match (geth).
    expect(await counts({topics: [null, null, null, null]})).toEqual([]);
  });

  it("limits the range to canonical blocks up to the head", async () => {
    expect(await counts({fromBlock: 3, toBlock: 3})).toEqual([2n, 3n]);
    expect(await counts({fromBlock: 2, toBlock: 2})).toEqual([1n]);
    expect(await counts({fromBlock: 3, toBlock: 2})).toEqual([]);
    expect(await counts({fromBlock: 4, toBlock: 1000})).toEqual([]);
    const logs = await chain.getLogs({fromBlock: 3, toBlock: 3});
    expect(logs.map((l) => [l.transactionIndex, l.logIndex])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it("stops when the control's signal is aborted or its onLog throws (docs/rpc.md §8)", async () => {
    const aborted = new AbortController();
    aborted.abort(new Error("gone"));
    await expect(chain.getLogs({fromBlock: 0, toBlock: 100}, {signal: aborted.signal})).rejects.toThrow("gone");
    const seen: bigint[] = [];
    const full = new Error("full");
    const onLog = (entry: {log: {topics: readonly Uint8Array[]}}) => {
      if (seen.length === 2) throw full;
      seen.push(bytesToBigInt(entry.log.topics[2]!));
    };
    await expect(chain.getLogs({fromBlock: 0, toBlock: 100}, {onLog})).rejects.toBe(full);
    expect(seen).toEqual([1n, 2n]);
  });

  it("scans 2,000 blocks of blooms and reads only the blocks that may match", async () => {
    const store = new ChainStore(test.store, {rules: regtest, chainId: regtest.params.chainId}, defaultChainOptions);
    // Canonical blooms of 2,000 more heights, each with an unrelated log's bits (no block behind them).
    const batch = new WriteBatch();
    for (let n = 4; n < 2004; n++) {
      const address = new Uint8Array(20).fill(n & 0xff);
      address[0] = n >> 8;
      batch.put(Bucket.canonicalBloom, numberKey(n), logsBloom([{address, topics: [], data: new Uint8Array(0)}]));
    }
    await test.store.write(batch);
    // The claim is what is read, not how fast (eth_getLogs speed: scripts/bench/rpc.mjs).
    const hashAt = vi.spyOn(store.canonical, "hashAt");
    const logs = await queryLogs(store, {fromBlock: 0, toBlock: 2003, addresses: [contract]}, 2003);
    expect(logs).toHaveLength(3);
    const readHeights = hashAt.mock.calls.map(([n]) => n);
    expect(readHeights.every((n) => n < 4)).toBe(true);
    expect(readHeights.length).toBeGreaterThan(0);
  });
});

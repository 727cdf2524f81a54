// RpcBlockFetcher against a JSON-RPC endpoint on a free loopback port: order, batching and the concurrency
// bound, retries of transient failures, and the precise errors for the answers it cannot use.
import {FakeBlockEndpoint} from "@xchain/test-utils";
import {afterAll, beforeAll, beforeEach, describe, expect, it} from "vitest";
import {
  type FetchedBlock,
  RpcBlockFetcher,
  RpcFetchErrorCode,
  type VerifyRpcOptions,
} from "../../src/verify/rpcBlockFetcher.ts";

const OPTIONS: VerifyRpcOptions = {batchSize: 7, concurrency: 3, rate: 0, retries: 2, timeoutMs: 10_000};

async function collect(fetcher: RpcBlockFetcher, from: number, to: number): Promise<FetchedBlock[]> {
  const blocks: FetchedBlock[] = [];
  for await (const block of fetcher.blocks(from, to)) blocks.push(block);
  return blocks;
}

async function failure(fetcher: RpcBlockFetcher, from: number, to: number): Promise<{code: string; message: string}> {
  try {
    await collect(fetcher, from, to);
  } catch (e) {
    return e as {code: string; message: string};
  }
  throw new Error("expected the fetch to fail");
}

describe("RpcBlockFetcher", () => {
  const node = new FakeBlockEndpoint();
  let url = "";

  beforeAll(async () => {
    url = await node.start();
    for (let n = 1; n <= 100; n++) node.blocks.set(n, {number: `0x${n.toString(16)}`});
  });
  afterAll(() => node.stop());
  beforeEach(() => node.reset());

  it("yields every block once, in order, whatever order the batches finish in", async () => {
    const blocks = await collect(new RpcBlockFetcher(url, OPTIONS), 3, 60);
    expect(blocks.map((b) => b.number)).toEqual(Array.from({length: 58}, (_, i) => i + 3));
    expect(blocks[0]?.json).toEqual({number: "0x3"});
    expect([...node.requested].sort((a, b) => a - b)).toEqual(blocks.map((b) => b.number));
  });

  it("fetches everything under a rate limit that makes it wait", async () => {
    // 20 blocks a second with batches of 10: the third batch waits for the bucket to refill.
    const blocks = await collect(new RpcBlockFetcher(url, {...OPTIONS, batchSize: 10, rate: 20}), 1, 30);
    expect(blocks.map((b) => b.number)).toEqual(Array.from({length: 30}, (_, i) => i + 1));
  });

  it("asks for no more than `concurrency` batches ahead of what was consumed", async () => {
    const blocks = new RpcBlockFetcher(url, OPTIONS).blocks(1, 100);
    await blocks.next();
    // The first batch was consumed and one more launched: four batches of seven asked for, no more.
    expect(node.requested.length).toBeLessThanOrEqual(4 * OPTIONS.batchSize);
    await blocks.return(undefined);
  });

  it("retries HTTP 503 and a rate-limit error, then gives up naming the node and the attempts", async () => {
    node.failNext = 2;
    let limited = 1;
    node.errorFor = (n) => (n === 5 && limited-- > 0 ? {code: -32005, message: "rate limit exceeded"} : undefined);
    expect(await collect(new RpcBlockFetcher(url, OPTIONS), 1, 10)).toHaveLength(10);
    node.failNext = 10;
    const error = await failure(new RpcBlockFetcher(url, {...OPTIONS, retries: 1}), 1, 3);
    expect(error.code).toBe(RpcFetchErrorCode.UNREACHABLE);
    expect(error.message).toBe(`${url}: blocks 1 to 3 failed 2 times (HTTP 503)`);
  });

  it("gives up on a closed port after its retries", async () => {
    const closed = new FakeBlockEndpoint();
    const closedUrl = await closed.start();
    await closed.stop();
    const error = await failure(new RpcBlockFetcher(closedUrl, {...OPTIONS, retries: 0}), 1, 1);
    expect(error.message).toBe(`${closedUrl}: blocks 1 to 1 failed 1 time (ECONNREFUSED)`);
  });

  it("reports a JSON-RPC error for a block, naming the block, code and message", async () => {
    node.errorFor = (n) => (n === 9 ? {code: -32602, message: "invalid argument 0"} : undefined);
    const error = await failure(new RpcBlockFetcher(url, OPTIONS), 1, 10);
    expect(error.code).toBe(RpcFetchErrorCode.ERROR_ANSWER);
    expect(error.message).toBe(`${url}: eth_getBlockByNumber(0x9) answered error -32602: invalid argument 0`);
  });

  it("reports rskj's batch-size refusal with the flag to lower", async () => {
    node.rawStatus = 400;
    node.rawBody = JSON.stringify({
      error: {
        code: -32600,
        message: "Cannot dispatch batch requests. 50 is the max number of supported batch requests",
      },
    });
    const error = await failure(new RpcBlockFetcher(url, OPTIONS), 1, 2);
    expect(error.code).toBe(RpcFetchErrorCode.HTTP_STATUS);
    expect(error.message).toMatch(
      /answered HTTP 400: .*50 is the max number.* \(if the node limits batch sizes, lower --batch-size\)$/,
    );
  });

  it("reports an answer that is not a batch, or lacks a block's answer", async () => {
    node.rawBody = JSON.stringify({jsonrpc: "2.0", id: 1, result: null});
    expect((await failure(new RpcBlockFetcher(url, OPTIONS), 1, 2)).message).toBe(
      `${url}: the answer to the batch for blocks 1 to 2 is not a JSON-RPC batch answer (an array): ` +
        `"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":null}"`,
    );
    node.rawBody = JSON.stringify([{jsonrpc: "2.0", id: 1, result: null}]);
    const error = await failure(new RpcBlockFetcher(url, OPTIONS), 1, 2);
    expect(error.code).toBe(RpcFetchErrorCode.BAD_ANSWER);
    expect(error.message).toBe(`${url}: the answer to the batch for blocks 1 to 2 has no answer with id 2 (block 2)`);
  });
});

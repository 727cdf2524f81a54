// A follower as a load balancer's upstream (docs/operations.md §10): a miner and a non-mining
// follower over p2p. A raw transaction sent to the follower while it has no peer stays pending in
// its pool and reaches the miner once they connect; it is mined and its receipt is on the follower.
// The follower answers refusals as the miner does, names its head in every HTTP answer's headers,
// and its /ready is 503 while it is behind the miner, 200 once it has caught up.
import {cowAccounts} from "@xchain/test-utils";
import {bytesToHex} from "@xchain/utils";
import {Wallet} from "ethers";
import {afterEach, describe, expect, it, vi} from "vitest";
import {rpc, rpcRefusal, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
});

async function start(args: string[], dataDir = tempDataDir()): Promise<RunningNode> {
  const node = await startNode(args, dataDir);
  running.push(node);
  return node;
}

const blockNumber = async (node: RunningNode) => Number(await rpc<string>(node.httpUrl, "eth_blockNumber"));

/** `GET /ready`: the status and the reason of a 503. */
async function ready(node: RunningNode): Promise<{status: number; reason?: string}> {
  const response = await fetch(new URL("/ready", node.httpUrl));
  const body = (await response.json()) as {reason?: string};
  return {status: response.status, ...(body.reason === undefined ? {} : {reason: body.reason})};
}

/** A JSON-RPC call over plain HTTP: the response, headers and all. */
function post(node: RunningNode, method: string, params: unknown[] = []): Promise<Response> {
  return fetch(node.httpUrl, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({jsonrpc: "2.0", id: 1, method, params}),
  });
}

/** The error a call answers (it must fail). */
function refusal(node: RunningNode, method: string, params: unknown[]): Promise<{code: number; message: string}> {
  return rpcRefusal(node.httpUrl, method, params);
}

const signer = (index: number) => new Wallet(`0x${bytesToHex(cowAccounts()[index]!.privateKey)}`);
const TO = `0x${"ab".repeat(20)}`;

/** A legacy transfer of `value` to TO with nonce 0, signed by `wallet` (regtest's chain id). */
function transfer(wallet: Pick<Wallet, "signTransaction">, value: bigint, gasPrice: bigint): Promise<string> {
  return wallet.signTransaction({to: TO, value, type: 0, gasLimit: 21_000n, gasPrice, chainId: 33n, nonce: 0});
}

describe("a follower as an upstream", () => {
  it("keeps a transaction sent while it has no peer, hands it to the miner, and is ready once caught up", async () => {
    // A miner with a few hundred blocks, then restarted with a slow block time: the chain to sync
    // is long, and the tip then moves slowly.
    const minerDir = tempDataDir();
    const fast = await start(["--miner.blockTimeMs", "25"], minerDir);
    await vi.waitFor(async () => expect(await blockNumber(fast)).toBeGreaterThanOrEqual(300), {timeout: 60_000});
    await fast.stop();
    running.splice(running.indexOf(fast), 1);
    const miner = await start(["--miner.blockTimeMs", "1000"], minerDir);

    // A follower with no peer yet; its sync, once it has one, takes one body per round trip.
    const slow = ["--sync.headersPerRequest", "8", "--sync.bodiesPerRequest", "1", "--sync.parallelBodyRequests", "1"];
    const follower = await start(["--miner.enabled", "false", ...slow]);
    expect(await ready(follower)).toEqual({
      status: 503,
      reason: "still at genesis: no peer connected, so syncing has not started",
    });

    // Refusals as the miner's node gives them: no funds.
    const gasPrice = BigInt(await rpc<string>(follower.httpUrl, "eth_gasPrice"));
    const broke = await transfer(Wallet.createRandom(), 1n, gasPrice);
    const brokeOnFollower = await refusal(follower, "eth_sendRawTransaction", [broke]);
    expect(brokeOnFollower).toEqual(await refusal(miner, "eth_sendRawTransaction", [broke]));
    expect(brokeOnFollower.message).toMatch(/insufficient funds/);

    // Sent while the follower has no peer: pending in its pool, and its hash answered.
    const raw = await transfer(signer(1), 7n, gasPrice);
    const hash = await rpc<string>(follower.httpUrl, "eth_sendRawTransaction", [raw]);
    const pending = await rpc<{hash: string; blockHash: string | null}>(follower.httpUrl, "eth_getTransactionByHash", [
      hash,
    ]);
    expect(pending).toMatchObject({hash, blockHash: null});

    // Every JSON-RPC answer over HTTP names the head.
    const answer = await post(follower, "eth_getBlockByNumber", ["latest", false]);
    const genesis = ((await answer.json()) as {result: {hash: string}}).result;
    expect(answer.headers.get("x-xchain-head")).toBe("0");
    expect(answer.headers.get("x-xchain-head-hash")).toBe(genesis.hash);

    // Connected: the follower syncs, and is not ready while it is behind.
    expect(await rpc(follower.httpUrl, "admin_addPeer", [miner.p2pAddresses[0]])).toBe(true);
    await vi.waitFor(async () => expect((await ready(follower)).reason ?? "").toMatch(/blocks behind/), {
      timeout: 60_000,
      interval: 10,
    });
    await vi.waitFor(async () => expect(await ready(follower)).toEqual({status: 200}), {timeout: 60_000});

    // The transaction reached the miner by the push of the follower's pool, was mined, and its
    // receipt is on the follower.
    const receipt = await waitForReceipt(follower.httpUrl, hash, 30_000);
    expect(receipt.status).toBe("0x1");
    expect(await waitForReceipt(miner.httpUrl, hash)).toMatchObject({blockHash: receipt.blockHash});
    const head = await post(follower, "eth_chainId");
    expect(Number(head.headers.get("x-xchain-head"))).toBeGreaterThanOrEqual(Number(receipt.blockNumber));

    // Once both have the block: the same refusal for a nonce used.
    const again = await transfer(signer(1), 8n, gasPrice);
    const onFollower = await refusal(follower, "eth_sendRawTransaction", [again]);
    expect(onFollower).toEqual(await refusal(miner, "eth_sendRawTransaction", [again]));
    expect(onFollower.message).toMatch(/nonce too low/);
  });
});

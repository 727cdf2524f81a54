// End-to-end: pending transactions survive a clean restart (the transaction journal,
// docs/operations.md §7). A node that does not mine takes signed transfers, is stopped with
// SIGTERM, started again on the same data directory, and serves the same transactions.
import {Transaction} from "@xchain/primitives";
import {cowAccounts} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {afterAll, describe, expect, it} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];
const cows = cowAccounts();
const NO_MINING = ["--miner.enabled", "false", "--p2p.enabled", "false"];

afterAll(async () => {
  await Promise.all(running.filter((n) => n.process.exitCode === null).map((n) => n.stop("SIGKILL")));
});

async function start(args: string[], dataDir: string): Promise<RunningNode> {
  const node = await startNode(args, dataDir);
  running.push(node);
  return node;
}

function transfer(from: number, nonce: number): string {
  const values = {
    nonce: BigInt(nonce),
    gasPrice: 0n,
    gasLimit: 21_000n,
    to: cows[9]!.address,
    value: BigInt(1000 + nonce),
    data: new Uint8Array(),
  };
  return bytesToPrefixedHex(Transaction.sign(values, cows[from]!.privateKey, 33).encode());
}

/** rskj's shape: by sender and nonce, a one-element array of the transaction object. */
interface PoolContent {
  pending: Record<string, Record<string, [{hash: string}]>>;
  queued: Record<string, Record<string, [{hash: string}]>>;
}

/** The hashes of txpool_content, sorted, per slot. */
async function poolHashes(url: string): Promise<{pending: string[]; queued: string[]}> {
  const content = await rpc<PoolContent>(url, "txpool_content");
  const hashes = (slot: PoolContent["pending"]) =>
    Object.values(slot)
      .flatMap((byNonce) => Object.values(byNonce).map(([tx]) => tx.hash))
      .sort();
  return {pending: hashes(content.pending), queued: hashes(content.queued)};
}

describe("the transaction journal", () => {
  it("keeps pending and queued transactions across a SIGTERM restart", async () => {
    const dataDir = tempDataDir();
    const first = await start(NO_MINING, dataDir);
    // Three pending from two senders, one queued behind a nonce gap.
    const raws = [transfer(0, 0), transfer(0, 1), transfer(1, 0), transfer(2, 5)];
    const sent: string[] = [];
    for (const raw of raws) sent.push(await rpc<string>(first.httpUrl, "eth_sendRawTransaction", [raw]));
    const before = await poolHashes(first.httpUrl);
    expect(before.pending).toEqual(sent.slice(0, 3).sort());
    expect(before.queued).toEqual([sent[3]]);
    expect((await first.stop("SIGTERM")).code).toBe(0);

    const second = await start(NO_MINING, dataDir);
    expect(await poolHashes(second.httpUrl)).toEqual(before);
    for (const hash of sent) {
      const tx = await rpc<{hash: string; blockHash: string | null}>(second.httpUrl, "eth_getTransactionByHash", [
        hash,
      ]);
      expect(tx).toMatchObject({hash, blockHash: null});
    }
    expect(second.logs.some((l) => l.msg === "transaction journal: 4 of 4 transactions admitted again")).toBe(true);

    // A third start with the autominer on (no timed blocks): the journal's transactions reach it as
    // new ones do, and the pending ones are mined without another transaction coming in.
    expect((await second.stop("SIGTERM")).code).toBe(0);
    const third = await start(["--miner.blockTimeMs", "0", "--p2p.enabled", "false"], dataDir);
    for (const hash of sent.slice(0, 3)) expect((await waitForReceipt(third.httpUrl, hash)).status).toBe("0x1");
    expect((await poolHashes(third.httpUrl)).queued).toEqual([sent[3]]);
    expect((await third.stop("SIGTERM")).code).toBe(0);
  });

  it("starts without the journal with txpool.journal false", async () => {
    const dataDir = tempDataDir();
    const first = await start(NO_MINING, dataDir);
    await rpc<string>(first.httpUrl, "eth_sendRawTransaction", [transfer(3, 0)]);
    expect((await first.stop("SIGTERM")).code).toBe(0);
    const second = await start([...NO_MINING, "--txpool.journal", "false"], dataDir);
    expect(await poolHashes(second.httpUrl)).toEqual({pending: [], queued: []});
    expect((await second.stop("SIGTERM")).code).toBe(0);
  });
});

// The deployment of docs/operations.md §10, tested: one mining node, two followers syncing from it
// over p2p, and HAProxy on loopback in front running docs/haproxy.cfg as it is (addresses from the
// environment, free ports everywhere). An ethers dapp and a viem dapp, each with its own API key in
// the URL path, deploy a contract and go round after round (send signed locally, wait for the
// receipt, read the logs, poll an eth_newFilter); a viem WebSocket client keeps eth_subscribe
// "newHeads" and "logs". During the rounds a follower holding a dapp's key is killed (a crash) and
// started again, then the miner is stopped (SIGTERM) and started again.
//
// What is asserted, and why:
// - No request fails that a client would not retry: the dapps' HTTP clients retry only the
//   balancer's own 502/503/504 (dapps.ts); any other error ends a round and fails the test. The
//   balancer hides a dead node: a request on the dead node's key right after the kill is answered
//   (HAProxy retried it and sent it to another node).
// - No transaction is lost: every hash a dapp was given has a successful receipt, on the miner.
// - No filter changes its answer: a filter id only ever returns logs of its own query, never one
//   twice; when its node is gone the node the client lands on answers "filter not found" (and the
//   dapp installs it again from the block after the last it saw), and the dapp ends with exactly
//   one log per increment it sent. The filter of the dapp whose node was killed is lost at least
//   once: the re-creation path ran.
// - The subscription: every head it delivered is the canonical block at that number, every log is
//   one of the contract's canonical logs, none twice on one connection; it reconnects after its node restarts and
//   delivers the logs of rounds sent after the last restart. Logs emitted while its socket was
//   down are not replayed (a WebSocket subscription does not promise that; dapps use eth_getLogs).
// - HAProxy's log never shows a key (the path is not logged).
import {randomBytes} from "node:crypto";
import {afterAll, describe, expect, it, vi} from "vitest";
import {haproxyBinary} from "../support/haproxy.ts";
import {rpc} from "../support/jsonRpc.ts";
import {type Cluster, type ClusterNode, startCluster} from "./cluster.ts";
import {type Dapp, EthersDapp, ViemDapp} from "./dapps.ts";
import {logKey, type RpcLog} from "./polledFilter.ts";
import {WsWatcher} from "./wsWatcher.ts";

const binary = haproxyBinary();
const WAIT = {timeout: 60_000, interval: 100};
/** Rounds each dapp goes before the first restart, between the two, and after the second. */
const ROUNDS_BETWEEN = 2;

let cluster: Cluster | undefined;
const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
  await cluster?.stop();
});

const apiKey = () => randomBytes(32).toString("hex");

/** Waits until HAProxy counts `node` as `UP` (its /ready answered 200 twice in a row). */
async function upInBalancer(c: Cluster, node: ClusterNode): Promise<void> {
  await vi.waitFor(async () => expect(await c.haproxy.serverStatus("xchain_http", node.name)).toBe("UP"), WAIT);
}

/** Waits until every dapp has sent `count` transactions more than it had sent when called. */
function roundsDone(dapps: Dapp[], count: number): Promise<void> {
  const targets = dapps.map((d) => d.sent.length + count);
  const behind = () => dapps.filter((d, i) => d.sent.length < (targets[i] as number)).map((d) => d.name);
  return vi.waitFor(() => expect(behind()).toEqual([]), {timeout: 90_000, interval: 100});
}

/** The answer of the balancer to eth_blockNumber on `key`, without any client retry. */
async function plainBlockNumber(c: Cluster, key: string): Promise<{status: number; result?: string}> {
  const response = await fetch(`${c.httpUrl}/${key}`, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: []}),
  });
  const body = (await response.json().catch(() => ({}))) as {result?: string};
  return {status: response.status, result: body.result};
}

/** The retries and redispatches HAProxy counted on the HTTP backend. */
async function retriesAndRedispatches(c: Cluster): Promise<number> {
  const rows = (await c.haproxy.stats()).filter((r) => r.pxname === "xchain_http");
  return rows.reduce((sum, r) => sum + r.wretr + r.wredis, 0);
}

describe.skipIf(binary === undefined)(
  binary ? "xchain behind HAProxy" : "xchain behind HAProxy (skipped: no haproxy binary; apt-get install haproxy)",
  () => {
    it("serves two dapps and a subscription through a follower crash and a miner restart", async () => {
      const c = await startCluster(binary as string, {followers: 2, blockTimeMs: 1_000, checkInter: "300ms"});
      cluster = c;
      const nodes = [c.miner, ...c.followers];
      // Followers are ready once they have met the miner and caught up.
      for (const node of nodes) await upInBalancer(c, node);

      const keys = {ethers: apiKey(), viem: apiKey(), ws: apiKey()};
      const ethers = new EthersDapp(`${c.httpUrl}/${keys.ethers}`, "cow2");
      const viem = new ViemDapp(`${c.httpUrl}/${keys.viem}`, "cow3");
      closers.push(() => ethers.close());
      const dapps: Dapp[] = [ethers, viem];
      await ethers.deploy();
      await viem.deploy();
      const ws = new WsWatcher(`${c.wsUrl}/${keys.ws}`, viem.contract);
      ws.start();
      closers.push(() => ws.stop());
      await vi.waitFor(() => expect(ws.heads.length).toBeGreaterThan(0), WAIT);

      // The rounds go on in the background until the restarts are over, and then a few more.
      let restartsOver = false;
      const flows = dapps.map(async (dapp) => {
        let after = 0;
        while (!restartsOver || after++ < ROUNDS_BETWEEN) await dapp.round();
      });
      // A flow that fails ends the test at once, with its error, rather than at a later wait.
      const failed = Promise.race(flows.map((f) => f.then(() => new Promise<never>(() => {}))));
      const during = <T>(step: Promise<T>) => Promise.race([step, failed]);
      await during(roundsDone(dapps, ROUNDS_BETWEEN));

      // Each key sticks to one node; the follower to crash is one that holds a dapp's key.
      const holder = (dapp: Dapp) => dapp.traffic.upstream;
      const victimDapp = dapps.find((d) => holder(d)?.startsWith("follower"));
      expect(victimDapp, `keys placed on ${dapps.map(holder)}: none on a follower`).toBeDefined();
      const victim = c.followers.find((f) => f.name === holder(victimDapp as Dapp)) as ClusterNode;
      const victimKey = victimDapp === ethers ? keys.ethers : keys.viem;

      const retriesBefore = await retriesAndRedispatches(c);
      await during(victim.kill("SIGKILL"));
      // HAProxy still counts it up (two failed checks take it down): the request goes to it, fails to
      // connect, and is sent to another node.
      const probe = await during(plainBlockNumber(c, victimKey));
      expect(probe.status).toBe(200);
      expect(probe.result).toMatch(/^0x[0-9a-f]+$/);
      expect(await retriesAndRedispatches(c)).toBeGreaterThan(retriesBefore);
      await during(victim.startAgain());
      await during(upInBalancer(c, victim));
      await during(roundsDone(dapps, ROUNDS_BETWEEN));

      await during(c.miner.kill("SIGTERM"));
      await during(c.miner.startAgain());
      await during(upInBalancer(c, c.miner));
      await during(roundsDone(dapps, 1));
      restartsOver = true;
      await Promise.all(flows);

      // No transaction lost: each has a successful receipt, on the miner itself.
      for (const dapp of dapps) {
        for (const hash of dapp.sent) {
          const receipt = await rpc<{status: string} | null>(c.miner.running.httpUrl, "eth_getTransactionReceipt", [
            hash,
          ]);
          expect(receipt?.status, `${dapp.name} ${hash}`).toBe("0x1");
        }
      }

      // No filter changed its answer.
      for (const dapp of dapps) {
        const {filter} = dapp;
        for (const [id, changes] of filter.changesById) {
          for (const log of changes) {
            expect(log.address, `${dapp.name} filter ${id}`).toBe(dapp.contract);
            expect(log.topics[0]).toBe(filter.topic);
          }
          expect(new Set(changes.map(logKey)).size, `${dapp.name} filter ${id} returned a log twice`).toBe(
            changes.length,
          );
        }
        const increments = dapp.sent.slice(1);
        expect(filter.logs.map((l) => l.transactionHash).sort()).toEqual([...increments].sort());
        await expectCanonical(c, filter.logs);
      }
      expect((victimDapp as Dapp).filter.lost.length).toBeGreaterThanOrEqual(1);

      // The subscription: canonical, never twice, and alive after the restarts.
      for (const head of ws.heads) {
        const block = await rpc<{hash: string}>(c.miner.running.httpUrl, "eth_getBlockByNumber", [
          `0x${head.number.toString(16)}`,
          false,
        ]);
        expect(block.hash).toBe(head.hash);
      }
      const lastViemRound = viem.sent.at(-1) as string;
      await vi.waitFor(() => expect(ws.logs.map((l) => l.transactionHash)).toContain(lastViemRound), WAIT);
      // Never twice on one connection. Across a reconnection a log may come again: the new node may
      // be a block behind the old one and import (and announce) a block the client already saw.
      for (const breaks of new Set(ws.logs.map((l) => l.breaksBefore))) {
        const logs = ws.logs.filter((l) => l.breaksBefore === breaks);
        const keysOf = logs.map((l) => `${l.blockHash}/${l.logIndex}`);
        expect(new Set(keysOf).size, JSON.stringify({logs: ws.logs, errors: ws.errors})).toBe(logs.length);
      }
      for (const log of ws.logs) expect(viem.sent).toContain(log.transactionHash);
      expect(ws.logs.every((l) => l.address === viem.contract)).toBe(true);

      // The path is the key: HAProxy's log has none.
      for (const key of Object.values(keys)) expect(c.haproxy.output()).not.toContain(key);

      console.info(
        `balancer: ${dapps.map((d) => `${d.name} sent ${d.sent.length} on ${[...new Set(d.traffic.upstreams)]}, ` + `${d.traffic.retried} answers retried, filter lost ${d.filter.lost.length}x`).join("; ")}; ` +
          `subscription: ${ws.heads.length} heads, ${ws.logs.length} logs, ${ws.errors.length} errors; victim ${victim.name}`,
      );
    });
  },
);

/** Every log is the canonical chain's (same block hash at its number), as the miner reads it. */
async function expectCanonical(c: Cluster, logs: RpcLog[]): Promise<void> {
  for (const log of logs) {
    const block = await rpc<{hash: string}>(c.miner.running.httpUrl, "eth_getBlockByNumber", [log.blockNumber, false]);
    expect(block.hash).toBe(log.blockHash);
  }
}

// Bootnodes and peers at run time, with real nodes (the CLI, child processes) on free loopback ports
// (docs/p2p.md "Bootnodes"): a failing bootnode is warned about with its cause (nothing listening, the
// wrong peer id naming the one found, another network), once per cause; a restarted bootnode is
// redialled; admin_addPeer connects two nodes that have no bootnodes; net_peerList gives full peer ids.
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {generateKeyPair} from "@libp2p/crypto/keys";
import {peerIdFromPrivateKey} from "@libp2p/peer-id";
import {afterEach, describe, expect, it, vi} from "vitest";
import {freeLoopbackPort} from "../support/freePort.ts";
import {type JsonRpcFault, rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const WARN = 40;

const running: RunningNode[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
});

async function node(args: string[] = [], dataDir = tempDataDir()): Promise<RunningNode> {
  const started = await startNode(["--miner.enabled", "false", ...args], dataDir);
  running.push(started);
  return started;
}

async function stop(n: RunningNode): Promise<void> {
  running.splice(running.indexOf(n), 1);
  await n.stop();
}

async function newPeerId(): Promise<string> {
  return peerIdFromPrivateKey(await generateKeyPair("secp256k1")).toString();
}

const idOf = (n: RunningNode) => (n.p2pAddresses[0] as string).split("/p2p/")[1] as string;
const portOf = (n: RunningNode) => (n.p2pAddresses[0] as string).split("/")[4] as string;
const bootnodeWarnings = (n: RunningNode, bootnode: string) =>
  n.logs.filter((l) => l.level === WARN && l.bootnode === bootnode);
/** The indexes of `n`'s "peer … connected" / "disconnected" lines about `peer`. */
const peerEvents = (n: RunningNode, peer: string, what: "connected" | "disconnected") =>
  n.logs.flatMap((l, i) => (l.peer === peer && String(l.msg).includes(` ${what} (`) ? [i] : []));

describe("bootnode warnings", () => {
  it("warns once that nothing listens at a bootnode's port, and keeps redialling it", async () => {
    const bootnode = `/ip4/127.0.0.1/tcp/${await freeLoopbackPort()}/p2p/${await newPeerId()}`;
    const b = await node(["--p2p.bootnodes", bootnode]);
    await vi.waitFor(() => expect(bootnodeWarnings(b, bootnode)).toHaveLength(1), {timeout: 15_000});
    const [warning] = bootnodeWarnings(b, bootnode);
    expect(warning).toMatchObject({cause: "refused"});
    expect(String(warning?.msg)).toContain(`bootnode ${bootnode} is not reachable: connection refused`);
    // Redialled every few seconds (at debug, not written at info), yet warned about only once.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(b.logs.filter((l) => l.level === WARN && l.cause === "refused")).toHaveLength(1);
  });

  it("names the peer id found at a bootnode's address when it is not the one given", async () => {
    const a = await node();
    const wrong = await newPeerId();
    const bootnode = `/ip4/127.0.0.1/tcp/${portOf(a)}/p2p/${wrong}`;
    const b = await node(["--p2p.bootnodes", bootnode]);
    await vi.waitFor(() => expect(bootnodeWarnings(b, bootnode)).toHaveLength(1), {timeout: 15_000});
    const [warning] = bootnodeWarnings(b, bootnode);
    expect(warning).toMatchObject({cause: "peer id mismatch", foundPeerId: idOf(a), expectedPeerId: wrong});
    expect(String(warning?.msg)).toContain(`has another peer id: the node at that address has peer id ${idOf(a)}`);
    expect(await rpc(b.httpUrl, "net_peerCount")).toBe("0x0");
  });

  it("says a bootnode is on another network when its genesis differs", async () => {
    // A custom network shares regtest's p2p network id (7771) but not its genesis block.
    const genesisFile = join(tempDataDir(), "genesis.json");
    writeFileSync(
      genesisFile,
      JSON.stringify({config: {chainId: 100}, difficulty: "0x01", gasLimit: "0x989680", alloc: {}}),
    );
    const a = await node(["--network", "custom", "--genesis-file", genesisFile]);
    const bootnode = a.p2pAddresses[0] as string;
    const b = await node(["--p2p.bootnodes", bootnode]);
    const wrongNetwork = () => bootnodeWarnings(b, bootnode).filter((w) => w.cause === "wrong network");
    await vi.waitFor(() => expect(wrongNetwork()).toHaveLength(1), {timeout: 15_000});
    expect(String(wrongNetwork()[0]?.msg)).toMatch(
      /is on another network: its genesis 0x[0-9a-f]{64} differs from ours/,
    );
    // However many redials: each cause once (a handshake cut short may be seen before the verdict).
    const causes = bootnodeWarnings(b, bootnode).map((w) => w.cause);
    expect(new Set(causes).size).toBe(causes.length);
  });
});

describe("bootnode redial", () => {
  it("reconnects to a bootnode restarted on its port, after one warning at most", async () => {
    const dir = tempDataDir();
    let a = await node([], dir);
    const bootnode = a.p2pAddresses[0] as string;
    const b = await node(["--p2p.bootnodes", bootnode]);
    const id = idOf(a);
    await vi.waitFor(() => expect(peerEvents(b, id, "connected")).toHaveLength(1), {timeout: 15_000});
    await stop(a);
    a = await node(["--p2p.port", portOf(a)], dir);
    const restartedAt = b.logs.length;
    await vi.waitFor(() => expect(peerEvents(b, id, "connected")).toHaveLength(2), {timeout: 30_000});
    // In order: connected, disconnected when A stopped, connected again after A was back.
    const [first, second] = peerEvents(b, id, "connected") as [number, number];
    const [lost] = peerEvents(b, id, "disconnected") as [number];
    expect(first).toBeLessThan(lost);
    expect(lost).toBeLessThan(second);
    expect(second).toBeGreaterThanOrEqual(restartedAt - 1);
    // The dials while A was down were refused: warned once at most, however many there were.
    expect(bootnodeWarnings(b, bootnode).length).toBeLessThanOrEqual(1);
    expect(await rpc<string[]>(b.httpUrl, "net_peerList")).toEqual([`${id}@127.0.0.1:${portOf(a)}`]);
  });
});

describe("admin_addPeer", () => {
  it("connects two nodes that have no bootnodes; net_peerList and admin_peers name the full ids", async () => {
    const a = await node();
    const b = await node();
    expect(await rpc(b.httpUrl, "net_peerCount")).toBe("0x0");
    const info = await rpc<{id: string; enode: string; ports: {listener: number}}>(a.httpUrl, "admin_nodeInfo");
    expect(info.id).toBe(idOf(a));
    expect(info.enode).toBe(a.p2pAddresses[0]);
    expect(info.ports.listener).toBe(Number(portOf(a)));
    expect(await rpc(b.httpUrl, "admin_addPeer", [info.enode])).toBe(true);
    await vi.waitFor(
      async () => {
        expect(await rpc(a.httpUrl, "net_peerCount")).toBe("0x1");
        expect(await rpc(b.httpUrl, "net_peerCount")).toBe("0x1");
      },
      {timeout: 15_000},
    );
    expect(await rpc<string[]>(b.httpUrl, "net_peerList")).toEqual([`${idOf(a)}@127.0.0.1:${portOf(a)}`]);
    const [onA] = await rpc<string[]>(a.httpUrl, "net_peerList");
    expect(onA).toMatch(new RegExp(`^${idOf(b)}@127\\.0\\.0\\.1:\\d+$`));
    const peers = await rpc<{id: string; network: {inbound: boolean; static: boolean}}[]>(b.httpUrl, "admin_peers");
    expect(peers).toMatchObject([{id: idOf(a), network: {inbound: false, static: true}}]);
  });

  it("refuses what is not a multiaddr ending in /p2p/<peer id> with -32602 saying why", async () => {
    const a = await node();
    const refusal = (address: unknown) =>
      rpc(a.httpUrl, "admin_addPeer", [address]).then(
        () => undefined,
        (e: unknown) => e as JsonRpcFault,
      );
    const noPeer = await refusal("/ip4/127.0.0.1/tcp/1");
    expect(noPeer).toMatchObject({code: -32602});
    expect(noPeer?.message).toBe(
      "invalid peer address /ip4/127.0.0.1/tcp/1: it must end in /p2p/<peer id> (xchain p2p-id prints a node's)",
    );
    expect((await refusal("enode://abc@127.0.0.1:30303"))?.message).toMatch(
      /^invalid peer address enode:\/\/abc@127\.0\.0\.1:30303: /,
    );
    expect((await refusal(5))?.code).toBe(-32602);
  });
});

// A flood of half-open p2p connections from many loopback addresses (127.0.0.2 to 127.0.0.41, each
// keeping several sockets that connect and then send nothing or a partial multistream prelude, and
// reconnect as soon as they are dropped) must not keep a real peer out: a libp2p peer with xchain's
// transport stack (TCP, Noise, Yamux) from 127.0.0.1 completes its handshake (the time it took is printed); and a flood
// of one half-open handshake from each of 250 addresses of the peer's own /24 does not evict the
// peer's handshake (docs/reliability.md §5).
import {connect, type Socket} from "node:net";
import {noise} from "@chainsafe/libp2p-noise";
import {yamux} from "@chainsafe/libp2p-yamux";
import type {Libp2p} from "@libp2p/interface";
import {tcp} from "@libp2p/tcp";
import {multiaddr} from "@multiformats/multiaddr";
import {createLibp2p} from "libp2p";
import {afterEach, describe, expect, it} from "vitest";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const FLOOD_ADDRESSES = 40;
const SOCKETS_PER_ADDRESS = 4;
const RECONNECT_DELAY_MS = 50;
// The start of the multistream-select header ("\x13/multistream/1.0.0\n"), cut short.
const PARTIAL_PRELUDE = Buffer.from("\x13/multistream/1.", "latin1");

let stopFlood: (() => void) | undefined;
let peer: Libp2p | undefined;
let node: RunningNode | undefined;
afterEach(async () => {
  stopFlood?.();
  stopFlood = undefined;
  await peer?.stop();
  peer = undefined;
  await node?.stop();
  node = undefined;
});

/**
 * Keeps `socketsPerAddress` half-open sockets from each of `addresses` flood addresses (127.0.0.2 on)
 * to `port`; returns how to stop.
 */
function flood(
  port: number,
  counts: {opened: number},
  addresses = FLOOD_ADDRESSES,
  socketsPerAddress = SOCKETS_PER_ADDRESS,
): () => void {
  let stopped = false;
  const sockets = new Set<Socket>();
  const open = (localAddress: string, partial: boolean): void => {
    if (stopped) return;
    const socket = connect({host: "127.0.0.1", port, localAddress}, () => {
      counts.opened++;
      if (partial) socket.write(PARTIAL_PRELUDE);
    });
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      sockets.delete(socket);
      setTimeout(() => open(localAddress, partial), RECONNECT_DELAY_MS);
    });
  };
  for (let i = 0; i < addresses; i++) {
    for (let j = 0; j < socketsPerAddress; j++) open(`127.0.0.${i + 2}`, (i + j) % 2 === 1);
  }
  return () => {
    stopped = true;
    for (const socket of sockets) socket.destroy();
  };
}

/**
 * Dials `address` until a connection is up (a refused or dropped attempt is retried after 250 ms);
 * the time taken and the attempts made.
 */
async function timeToConnect(
  dialer: Libp2p,
  address: string,
  giveUpMs: number,
): Promise<{elapsed: number; attempts: number}> {
  const started = Date.now();
  for (let attempts = 1; ; attempts++) {
    const elapsed = Date.now() - started;
    if (elapsed > giveUpMs) return {elapsed, attempts};
    try {
      await dialer.dial(multiaddr(address), {signal: AbortSignal.timeout(giveUpMs - elapsed + 1)});
      return {elapsed: Date.now() - started, attempts};
    } catch {
      // libp2p refuses more than 5 connections a second from one address: retry a few times a second.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

describe("p2p admission under a half-open flood", () => {
  it("lets a real peer complete its handshake while 40 loopback addresses flood the node", async () => {
    node = await startNode(["--miner.enabled", "false"]);
    const address = node.p2pAddresses[0] as string;
    // /ip4/127.0.0.1/tcp/<port>/p2p/<id>
    const port = Number(address.split("/")[4]);
    const counts = {opened: 0};
    stopFlood = flood(port, counts);
    // Let the flood fill every pending slot before the real peer comes.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    peer = await createLibp2p({transports: [tcp()], connectionEncrypters: [noise()], streamMuxers: [yamux()]});
    const {elapsed} = await timeToConnect(peer, address, 20_000);
    // The time is a figure for docs/reliability.md §5, not a claim: before, the peer never got in
    // (20 s, the hang bound); a loaded machine only stretches the time it takes now.
    console.log(`admission: real peer connected after ${elapsed} ms; flood sockets opened: ${counts.opened}`);
    expect(counts.opened).toBeGreaterThan(FLOOD_ADDRESSES * SOCKETS_PER_ADDRESS);
    expect(peer.getConnections()).toHaveLength(1);
  });

  it("lets a real peer in while 250 addresses of its own /24 each keep one half-open handshake", async () => {
    node = await startNode(["--miner.enabled", "false"]);
    const address = node.p2pAddresses[0] as string;
    const port = Number(address.split("/")[4]);
    const counts = {opened: 0};
    stopFlood = flood(port, counts, 250, 1);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    peer = await createLibp2p({transports: [tcp()], connectionEncrypters: [noise()], streamMuxers: [yamux()]});
    const {elapsed, attempts} = await timeToConnect(peer, address, 20_000);
    console.log(
      `admission: real peer connected after ${elapsed} ms and ${attempts} attempt(s); flood sockets opened: ${counts.opened}`,
    );
    expect(peer.getConnections()).toHaveLength(1);
    // Every flood address was admitted before the peer came: none of them may take the peer's slot
    // (before, the flood's retries evicted the peer's handshake again and again: 2.8-6.2 s, 5 attempts in one run).
    expect(attempts).toBe(1);
  });
});

/** Who may connect: bans (by peer id, by address, after a report), maxPeers, and bootnodes kept. */
import {afterEach, describe, expect, it} from "vitest";
import type {Host} from "../../src/context.ts";
import type {P2PNetwork} from "../../src/network.ts";
import {parseBanTarget} from "../../src/scoring/index.ts";
import {PeerEvent} from "../../src/types.ts";
import {openChain} from "../support/chain.ts";
import {connect, RecordingScoring, sleep, startHost, stopAll, waitFor} from "../support/hosts.ts";
import {RawPeer, stopRawPeers} from "../support/rawPeer.ts";

function hostOf(network: P2PNetwork): Host {
  return (network as unknown as {host: Host}).host;
}

afterEach(async () => {
  await stopRawPeers();
  await stopAll();
});

describe("bans", () => {
  it("refuses a banned peer id, inbound and outbound", async () => {
    const a = await startHost();
    const banned = await startHost();
    a.scoring.bannedPeers.add(banned.network.peerId);
    // Inbound: its dial may complete on its side, but a closes the connection before any handshake.
    await banned.network.connect(a.network.listenAddresses()[0] as string).catch(() => undefined);
    await expect(a.network.connect(banned.network.listenAddresses()[0] as string)).rejects.toThrow();
    await waitFor(() => hostOf(banned.network).getConnections().length === 0, "the refusal");
    await sleep(200);
    expect(a.network.peers()).toEqual([]);
    expect(banned.network.peers()).toEqual([]);
    expect(a.scoring.of(banned.network.peerId)).toEqual([]);
    // Another peer is welcome.
    const other = await startHost();
    await connect(other, a);
  });

  it("refuses connections from a banned address, and hangs up on it when banned later", async () => {
    const a = await startHost();
    const b = await startHost();
    await connect(b, a);
    a.scoring.banAddress(parseBanTarget("127.0.0.1"));
    a.network.enforceBans();
    await waitFor(() => a.network.peers().length === 0 && b.network.peers().length === 0, "the hang-up");
    const c = await startHost();
    await expect(c.network.connect(a.network.listenAddresses()[0] as string)).rejects.toThrow();
    expect(a.network.peers()).toEqual([]);
  });

  it("a report that gets a peer banned disconnects it", async () => {
    const a = await startHost({scoring: new RecordingScoring(PeerEvent.INVALID_BLOCK)});
    const b = await startHost();
    await connect(b, a);
    a.network.report(b.network.peerId, PeerEvent.VALID_BLOCK);
    await sleep(100);
    expect(a.network.peers()).toHaveLength(1);
    const left: string[] = [];
    a.network.on("peerDisconnected", (id) => left.push(id));
    a.network.report(b.network.peerId, PeerEvent.INVALID_BLOCK);
    expect(left).toEqual([b.network.peerId]);
    await waitFor(() => b.network.peers().length === 0, "b to see the hang-up");
    expect(a.scoring.events.at(-1)).toEqual({
      peer: b.network.peerId,
      address: "127.0.0.1",
      event: PeerEvent.INVALID_BLOCK,
    });
    await b.network.connect(a.network.listenAddresses()[0] as string).catch(() => undefined);
    await sleep(300);
    expect(a.network.peers()).toEqual([]);
    expect(hostOf(a.network).getConnections()).toEqual([]);
  });
});

describe("peer limits and discovery", () => {
  it("refuses connections beyond maxPeers", async () => {
    const a = await startHost({options: {maxPeers: 1}});
    const b = await startHost();
    const c = await startHost();
    await connect(b, a);
    await c.network.connect(a.network.listenAddresses()[0] as string).catch(() => undefined);
    await sleep(300);
    expect(a.network.peers().map((p) => p.id)).toEqual([b.network.peerId]);
    expect(c.network.peers()).toEqual([]);
    // Nor does a full host dial out.
    await expect(a.network.connect(c.network.listenAddresses()[0] as string)).rejects.toThrow();
  });

  it("dials the bootnodes at start and redials one that hung up", async () => {
    const a = await startHost();
    const b = await startHost({options: {bootnodes: [a.network.listenAddresses()[0] as string]}});
    await waitFor(() => b.network.peers().some((p) => p.id === a.network.peerId), "b to reach its bootnode");
    const reconnected: string[] = [];
    b.network.on("peerConnected", (info) => reconnected.push(info.id));
    await a.network.disconnect(b.network.peerId);
    await waitFor(() => reconnected.includes(a.network.peerId), "b to redial its bootnode");
    expect(a.network.peers().map((p) => p.id)).toEqual([b.network.peerId]);
  });
});

describe("handshake with a hand-written peer", () => {
  it("another network id in the status is INVALID_NETWORK, another protocol version FAILED_HANDSHAKE", async () => {
    const chain = await openChain();
    const a = await startHost({chain});
    const wrongNetwork = await RawPeer.start(chain, {networkId: 31});
    const wrongVersion = await RawPeer.start(chain, {protocolVersion: 2});
    const right = await RawPeer.start(chain);
    for (const raw of [wrongNetwork, wrongVersion, right]) await a.network.connect(raw.address).catch(() => undefined);
    await waitFor(() => a.network.peers().length === 1, "the valid raw peer");
    await waitFor(
      () => a.scoring.of(wrongVersion.peerId).length > 0 && a.scoring.of(wrongNetwork.peerId).length > 0,
      "events",
    );
    expect(a.scoring.of(wrongNetwork.peerId)).toEqual([PeerEvent.INVALID_NETWORK]);
    expect(a.scoring.of(wrongVersion.peerId)).toEqual([PeerEvent.FAILED_HANDSHAKE]);
    expect(a.network.peers()[0]?.id).toBe(right.peerId);
    await waitFor(() => wrongNetwork.node.getConnections().length === 0, "the hang-up");
  });

  it("a peer that does not answer the handshake is FAILED_HANDSHAKE and closed after the timeout", async () => {
    const chain = await openChain();
    const a = await startHost({chain});
    const silent = await RawPeer.start(chain);
    await silent.node.unhandle(silent.ids.status);
    await silent.handle(silent.ids.status, async () => new Promise<void>(() => undefined));
    await a.network.connect(silent.address);
    await waitFor(() => a.scoring.of(silent.peerId).includes(PeerEvent.FAILED_HANDSHAKE), "FAILED_HANDSHAKE");
    expect(a.network.peers()).toEqual([]);
    await waitFor(() => silent.node.getConnections().length === 0, "the hang-up");
  });
});

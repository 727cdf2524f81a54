/** The status handshake between real hosts: who becomes a peer, status updates, and refusals. */
import {bytesToHex} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {PeerEvent, type PeerInfo, PROTOCOL_VERSION} from "../../src/types.ts";
import {buildBlocks, chainWith, NETWORK_ID} from "../support/chain.ts";
import {connect, sleep, startHost, stopAll, waitFor, withGenesis} from "../support/hosts.ts";

afterEach(stopAll);

describe("status handshake", () => {
  it("makes two hosts peers of each other, with their status, and forgets them on disconnect", async () => {
    const {blocks} = await buildBlocks(3);
    const a = await startHost({chain: await chainWith(blocks)});
    const b = await startHost();
    expect(a.network.listening()).toBe(true);
    expect(a.network.listenAddresses()[0]).toMatch(
      new RegExp(`^/ip4/127\\.0\\.0\\.1/tcp/\\d+/p2p/${a.network.peerId}$`),
    );
    const connected: PeerInfo[] = [];
    b.network.on("peerConnected", (info) => connected.push(info));
    expect(a.network.peers()).toEqual([]);

    await connect(b, a);
    const [onB] = b.network.peers();
    expect(onB?.id).toBe(a.network.peerId);
    expect(onB?.inbound).toBe(false);
    expect(onB?.remoteAddress).toMatch(/^\/ip4\/127\.0\.0\.1\/tcp\/\d+/);
    expect(onB?.status.bestNumber).toBe(3);
    expect(bytesToHex(onB?.status.bestHash ?? new Uint8Array(0))).toBe(bytesToHex((blocks[2] ?? blocks[0])!.hash()));
    expect(onB?.status.totalDifficulty).toBe(a.chain.head().totalDifficulty);
    expect(a.network.peers()[0]?.inbound).toBe(true);
    expect(a.network.peers()[0]?.status.bestNumber).toBe(0);
    expect(connected.map((p) => p.id)).toEqual([a.network.peerId]);
    expect(a.scoring.of(b.network.peerId)).toContain(PeerEvent.SUCCESSFUL_HANDSHAKE);
    expect(a.scoring.events.find((e) => e.peer === b.network.peerId)?.address).toBe("127.0.0.1");

    const gone: string[] = [];
    a.network.on("peerDisconnected", (id) => gone.push(id));
    await b.network.disconnect(a.network.peerId);
    await waitFor(() => a.network.peers().length === 0, "a to see b leave");
    expect(b.network.peers()).toEqual([]);
    expect(gone).toEqual([b.network.peerId]);
  });

  it("refuses a peer with another genesis block (INVALID_NETWORK) and one of another network id", async () => {
    const a = await startHost();
    const other = await startHost({chain: withGenesis(a.chain, new Uint8Array(32).fill(9))});
    await other.network.connect(a.network.listenAddresses()[0] as string).catch(() => undefined);
    await waitFor(() => a.scoring.of(other.network.peerId).includes(PeerEvent.INVALID_NETWORK), "INVALID_NETWORK");
    await waitFor(() => other.scoring.of(a.network.peerId).includes(PeerEvent.INVALID_NETWORK), "INVALID_NETWORK");
    expect(a.network.peers()).toEqual([]);
    expect(other.network.peers()).toEqual([]);

    // Another network id means other protocol ids: the handshake cannot even start.
    const foreign = await startHost({networkId: 31});
    await foreign.network.connect(a.network.listenAddresses()[0] as string).catch(() => undefined);
    await waitFor(() => a.scoring.of(foreign.network.peerId).includes(PeerEvent.FAILED_HANDSHAKE), "FAILED_HANDSHAKE");
    expect(a.network.peers()).toEqual([]);
    expect(foreign.network.peers()).toEqual([]);
    expect(a.scoring.of(foreign.network.peerId)).not.toContain(PeerEvent.SUCCESSFUL_HANDSHAKE);
  });

  it("announceStatus updates the peer's status and emits peerStatus", async () => {
    const {blocks} = await buildBlocks(2);
    const chain = await chainWith([]);
    const a = await startHost({chain});
    const b = await startHost();
    await connect(a, b);
    const updates: PeerInfo[] = [];
    b.network.on("peerStatus", (info) => updates.push(info));
    for (const block of blocks) await chain.importBlock(block);
    const head = chain.head();
    a.network.announceStatus({
      protocolVersion: PROTOCOL_VERSION,
      networkId: NETWORK_ID,
      genesisHash: chain.genesisHash,
      bestHash: head.hash,
      bestNumber: head.number,
      totalDifficulty: head.totalDifficulty,
    });
    await waitFor(() => updates.length === 1, "peerStatus");
    expect(updates[0]?.id).toBe(a.network.peerId);
    expect(b.network.peers()[0]?.status.bestNumber).toBe(2);
    expect(b.network.peers()[0]?.status.totalDifficulty).toBe(head.totalDifficulty);
    // The same status again changes nothing: no second event.
    a.network.announceStatus({...b.network.peers()[0]!.status});
    await sleep(200);
    expect(updates).toHaveLength(1);
  });
});

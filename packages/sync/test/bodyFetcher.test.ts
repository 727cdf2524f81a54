/** BodyFetcher against a scripted network: spreading, short answers, failures, uncle checks, refetch. */
import {type BlockBody, PeerEvent, type PeerId, type PeerInfo, type PeerNetwork} from "@xchain/p2p";
import type {Block, BlockHeader} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {beforeAll, describe, expect, it} from "vitest";
import {BodyFetcher} from "../src/bodyFetcher.ts";
import {SyncError, SyncErrorCode} from "../src/index.ts";
import {type Fixture, fixture} from "./support/fixture.ts";

let f: Fixture;

beforeAll(async () => {
  f = await fixture();
});

type Serve = (hashes: Uint8Array[]) => Promise<BlockBody[]>;

/** A network whose peers answer body requests with `serve[peer]`. */
function scripted(serve: Record<PeerId, Serve>, bestNumber = 60) {
  const reports: [PeerId, PeerEvent][] = [];
  const asked: [PeerId, number[]][] = [];
  const connected = new Set(Object.keys(serve));
  const byHash = new Map(f.main.map((b) => [bytesToHex(b.hash()), b]));
  const network = {
    peers: (): PeerInfo[] =>
      [...connected].map((id) => ({id, remoteAddress: "", inbound: false, status: {bestNumber} as PeerInfo["status"]})),
    getBodies: (peer: PeerId, hashes: Uint8Array[]) => {
      asked.push([peer, hashes.map((h) => byHash.get(bytesToHex(h))!.header.number)]);
      return (serve[peer] as Serve)(hashes);
    },
    report: (peer: PeerId, event: PeerEvent) => reports.push([peer, event]),
  } as unknown as PeerNetwork;
  return {network, reports, asked, connected};
}

function bodyOf(block: Block): BlockBody {
  return {transactions: [...block.transactions], uncles: [...block.uncles]};
}

const honest: Serve = async (hashes) =>
  hashes.map((h) => bodyOf(f.main.find((b) => bytesToHex(b.hash()) === bytesToHex(h))!));

function headers(from: number, to: number): BlockHeader[] {
  return f.main.slice(from - 1, to).map((b) => b.header);
}

describe("BodyFetcher", () => {
  it("spreads chunks over the peers and hands bodies over in any order", async () => {
    const {network, asked} = scripted({a: honest, b: honest});
    const fetcher = new BodyFetcher({
      network,
      syncPeer: "a",
      bodiesPerRequest: 2,
      parallelRequests: 4,
      logger: undefined,
    });
    const wanted = headers(1, 8);
    fetcher.enqueue(wanted);
    const last = await fetcher.take(wanted[7]!);
    expect(last.body.transactions.length).toBe(f.main[7]!.transactions.length);
    for (const header of wanted.slice(0, 7)) await fetcher.take(header);
    expect(asked.map(([, numbers]) => numbers)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
    ]);
    expect(new Set(asked.map(([peer]) => peer))).toEqual(new Set(["a", "b"]));
  });

  it("asks the rest of a short answer from another peer, and never that peer again for those blocks", async () => {
    const short: Serve = async (hashes) => (await honest(hashes)).slice(0, 1);
    const {network, asked} = scripted({a: short, b: honest});
    const fetcher = new BodyFetcher({network, syncPeer: "a", bodiesPerRequest: 4, parallelRequests: 1});
    const wanted = headers(1, 8);
    fetcher.enqueue(wanted);
    const fetched = await Promise.all(wanted.map((h) => fetcher.take(h)));
    expect(fetched.map((x) => x.peer)).toEqual(["a", "b", "b", "b", "b", "b", "b", "b"]);
    expect(asked.filter(([peer]) => peer === "a").map(([, n]) => n)).toEqual([[1, 2, 3, 4]]);
  });

  it("reports a body whose uncles are not its header's and takes it from another peer", async () => {
    const withUncle: Serve = async (hashes) =>
      (await honest(hashes)).map((body) => ({...body, uncles: [f.alt[0]!.header]}));
    const {network, reports, asked} = scripted({a: withUncle, b: honest});
    const fetcher = new BodyFetcher({network, syncPeer: "a", bodiesPerRequest: 4, parallelRequests: 1});
    const wanted = headers(1, 8);
    fetcher.enqueue(wanted);
    const fetched = await Promise.all(wanted.map((h) => fetcher.take(h)));
    expect(fetched.every((x) => x.peer === "b" && x.body.uncles.length === 0)).toBe(true);
    expect(reports).toEqual([["a", PeerEvent.INVALID_BLOCK]]);
    expect(asked.filter(([peer]) => peer === "a")).toHaveLength(1);
  });

  it("retries a failed request elsewhere; fails with PEER_GONE when the sync peer is gone and nobody else can serve", async () => {
    const {network, connected, asked} = scripted({b: async () => Promise.reject(new Error("reset")), a: honest}, 4);
    const fetcher = new BodyFetcher({network, syncPeer: "a", bodiesPerRequest: 4, parallelRequests: 2});
    const first = headers(1, 4);
    fetcher.enqueue(first);
    expect((await Promise.all(first.map((h) => fetcher.take(h)))).map((x) => x.peer)).toEqual(["a", "a", "a", "a"]);
    expect(asked).toEqual([
      ["b", [1, 2, 3, 4]],
      ["a", [1, 2, 3, 4]],
    ]);

    connected.delete("a");
    const more = headers(5, 8);
    const taken = fetcher.take(more[0]!);
    fetcher.enqueue(more);
    await expect(taken).rejects.toSatisfy((e) => e instanceof SyncError && e.type.code === SyncErrorCode.PEER_GONE);
  });

  it("refetch asks another peer; after four refused bodies it gives up with BODY_UNAVAILABLE", async () => {
    const peers = {a: honest, b: honest, c: honest, d: honest, e: honest};
    const {network} = scripted(peers);
    const fetcher = new BodyFetcher({network, syncPeer: "a", bodiesPerRequest: 1, parallelRequests: 1});
    const [header] = headers(1, 1);
    fetcher.enqueue([header!]);
    const seen: PeerId[] = [];
    let fetched = await fetcher.take(header!);
    for (let i = 0; i < 3; i++) {
      seen.push(fetched.peer);
      fetcher.refetch(header!, fetched.peer);
      fetched = await fetcher.take(header!);
    }
    seen.push(fetched.peer);
    expect(new Set(seen).size).toBe(4);
    fetcher.refetch(header!, fetched.peer);
    await expect(fetcher.take(header!)).rejects.toSatisfy(
      (e) => e instanceof SyncError && e.type.code === SyncErrorCode.BODY_UNAVAILABLE,
    );
  });
});

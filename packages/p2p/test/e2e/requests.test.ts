/** Headers and bodies by request between real hosts: what is served, the caps, and misbehaving peers. */
import type {Stream} from "@libp2p/interface";
import {lpStream} from "@libp2p/utils";
import {type Chain, ImportResultKind} from "@xchain/chain";
import {type Block, encodeRlp} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from "vitest";
import {P2PErrorCode} from "../../src/errors.ts";
import {MAX_BODIES_PER_REQUEST, MAX_HEADERS_PER_REQUEST, MAX_MESSAGE_BYTES, PeerEvent} from "../../src/types.ts";
import {encodeBodiesResponse, encodeBody} from "../../src/wire/bodies.ts";
import {encodeHeadersRequest, encodeHeadersResponse} from "../../src/wire/headers.ts";
import {buildBlocks, chainWith, transfer} from "../support/chain.ts";
import {connect, startHost, stopAll, TEST_TIMEOUT_MS, type TestHost, waitFor} from "../support/hosts.ts";
import {RawPeer, stopRawPeers} from "../support/rawPeer.ts";

const hex = (b: Uint8Array) => bytesToHex(b);
const code = (c: P2PErrorCode) => expect.objectContaining({code: c});

let blocks: Block[];
let chain: Chain;
beforeAll(async () => {
  const built = await buildBlocks(8);
  blocks = built.blocks;
  chain = await chainWith(blocks);
  // The uncle of block 3 is also stored as a block of a side chain.
  const sibling = built.builder.block(blocks[2]!.uncles[0]!.hash());
  expect((await chain.importBlock(sibling!)).kind).toBe(ImportResultKind.IMPORTED_NOT_BEST);
});

describe("serving from a real chain", () => {
  let server: TestHost;
  let client: TestHost;
  beforeAll(async () => {
    server = await startHost({chain});
    client = await startHost();
    await connect(client, server);
  });
  afterAll(stopAll);

  it("headers by number: canonical, oldest first, fewer past the head", async () => {
    const peer = server.network.peerId;
    const headers = await client.network.getHeadersByNumber(peer, 2, 4);
    expect(headers.map((h) => h.number)).toEqual([2, 3, 4, 5]);
    expect(headers.map((h) => hex(h.hash()))).toEqual(blocks.slice(1, 5).map((b) => hex(b.hash())));
    expect((await client.network.getHeadersByNumber(peer, 6, 10)).map((h) => h.number)).toEqual([6, 7, 8]);
    expect((await client.network.getHeadersByNumber(peer, 0, 1))[0]?.number).toBe(0);
    expect(await client.network.getHeadersByNumber(peer, 9, 5)).toEqual([]);
    expect(await client.network.getHeadersByNumber(peer, 3, 0)).toEqual([]);
    const all = await client.network.getHeadersByNumber(peer, 0, MAX_HEADERS_PER_REQUEST);
    expect(all).toHaveLength(9);
  });

  it("headers by hash: in the order asked, unknown ones left out, side-chain blocks included", async () => {
    const peer = server.network.peerId;
    const uncle = blocks[2]!.uncles[0]!;
    const hashes = [blocks[5]!.hash(), new Uint8Array(32).fill(3), blocks[1]!.hash(), uncle.hash()];
    const headers = await client.network.getHeadersByHash(peer, hashes);
    expect(headers.map((h) => hex(h.hash()))).toEqual(
      [blocks[5]!, blocks[1]!].map((b) => hex(b.hash())).concat(hex(uncle.hash())),
    );
  });

  it("bodies: transactions and uncles as stored, a missing block ends the list", async () => {
    const peer = server.network.peerId;
    const bodies = await client.network.getBodies(peer, [
      blocks[0]!.hash(),
      blocks[2]!.hash(),
      new Uint8Array(32),
      blocks[3]!.hash(),
    ]);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.transactions.map((t) => hex(t.hash()))).toEqual(
      blocks[0]!.transactions.map((t) => hex(t.hash())),
    );
    expect(bodies[0]?.transactions).toHaveLength(2);
    expect(bodies[1]?.uncles.map((u) => hex(u.hash()))).toEqual([hex(blocks[2]!.uncles[0]!.hash())]);
  });

  it("refuses requests over the caps before sending anything", async () => {
    const peer = server.network.peerId;
    const hashes = (n: number) => Array.from({length: n}, () => new Uint8Array(32));
    await expect(client.network.getHeadersByNumber(peer, 0, MAX_HEADERS_PER_REQUEST + 1)).rejects.toThrow(
      code(P2PErrorCode.INVALID_REQUEST),
    );
    await expect(client.network.getHeadersByHash(peer, hashes(MAX_HEADERS_PER_REQUEST + 1))).rejects.toThrow(
      code(P2PErrorCode.INVALID_REQUEST),
    );
    await expect(client.network.getBodies(peer, hashes(MAX_BODIES_PER_REQUEST + 1))).rejects.toThrow(
      code(P2PErrorCode.INVALID_REQUEST),
    );
    await expect(client.network.getBodies("16Uiu2HAmUnknownPeer", [])).resolves.toEqual([]);
    await expect(client.network.getHeadersByNumber(client.network.peerId, 0, 1)).rejects.toThrow(
      code(P2PErrorCode.UNKNOWN_PEER),
    );
    expect(server.scoring.of(client.network.peerId)).not.toContain(PeerEvent.INVALID_MESSAGE);
  });

  it("answers one-header requests one after the other on one connection", async () => {
    const peer = server.network.peerId;
    const rounds = 50;
    const started = performance.now();
    for (let i = 0; i < rounds; i++) expect(await client.network.getHeadersByNumber(peer, 1, 1)).toHaveLength(1);
    // A figure for the reader, no claim: a loaded machine stretches it.
    console.info(`p2p headers round trip: ${((performance.now() - started) / rounds).toFixed(2)} ms`);
  });
});

describe("misbehaving peers", () => {
  afterEach(async () => {
    vi.useRealTimers();
    await stopRawPeers();
    await stopAll();
  });

  /** A host and a raw peer connected to it, the raw peer answering `protocol` with `handler`. */
  async function hostAndRawPeer(protocol?: string, handler?: (stream: Stream) => Promise<void>) {
    const host = await startHost({chain});
    const raw = await RawPeer.start(chain);
    if (protocol && handler) await raw.handle(protocol, handler);
    await host.network.connect(raw.address);
    await waitFor(() => host.network.peers().some((p) => p.id === raw.peerId), "the handshake");
    return {host, raw};
  }

  it("a peer that never answers: TIMEOUT after requestTimeoutMs, and TIMEOUT_MESSAGE", async () => {
    const {host, raw} = await hostAndRawPeer(protocolOf("headers"), async (stream) => {
      await lpStream(stream).read();
    });
    const started = Date.now();
    await expect(host.network.getHeadersByNumber(raw.peerId, 1, 1)).rejects.toThrow(code(P2PErrorCode.TIMEOUT));
    // Not before its time (a timer never fires early); how much later is the machine's business.
    expect(Date.now() - started).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 50);
    expect(host.scoring.of(raw.peerId)).toContain(PeerEvent.TIMEOUT_MESSAGE);
  });

  it("a large bodies response (6 MiB) is read whole", async () => {
    const data = new Uint8Array(1024 * 1024).fill(0x5a);
    const transactions = Array.from({length: 6}, (_, i) => transfer(BigInt(i), 1n, data));
    const {host, raw} = await hostAndRawPeer(protocolOf("bodies"), async (stream) => {
      const lp = lpStream(stream);
      await lp.read();
      await lp.write(encodeBodiesResponse([encodeBody({transactions, uncles: []})]));
      await stream.close();
    });
    const bodies = await host.network.getBodies(raw.peerId, [new Uint8Array(32)]);
    expect(bodies[0]?.transactions.map((t) => hex(t.hash()))).toEqual(transactions.map((t) => hex(t.hash())));
    expect(host.scoring.of(raw.peerId)).toEqual([PeerEvent.SUCCESSFUL_HANDSHAKE]);
  });

  it("garbage and oversized responses: BAD_RESPONSE, and INVALID_MESSAGE", async () => {
    let answer: Uint8Array = Uint8Array.of(0xde, 0xad);
    const {host, raw} = await hostAndRawPeer(protocolOf("headers"), async (stream) => {
      const lp = lpStream(stream);
      await lp.read();
      stream.send(answer);
      await stream.close();
    });
    answer = Uint8Array.of(2, 0xde, 0xad); // a frame of two bytes that are not RLP
    await expect(host.network.getHeadersByNumber(raw.peerId, 1, 1)).rejects.toThrow(code(P2PErrorCode.BAD_RESPONSE));
    expect(host.scoring.of(raw.peerId)).toEqual([PeerEvent.SUCCESSFUL_HANDSHAKE, PeerEvent.INVALID_MESSAGE]);
    answer = varint(MAX_MESSAGE_BYTES + 1); // a length prefix over the limit
    await expect(host.network.getHeadersByNumber(raw.peerId, 1, 1)).rejects.toThrow(code(P2PErrorCode.BAD_RESPONSE));
    expect(host.scoring.of(raw.peerId).filter((e) => e === PeerEvent.INVALID_MESSAGE)).toHaveLength(2);
  });

  it("more or other headers than asked: BAD_RESPONSE, and UNEXPECTED_MESSAGE", async () => {
    let response = encodeHeadersResponse(blocks.slice(0, 3).map((b) => b.header));
    const {host, raw} = await hostAndRawPeer(protocolOf("headers"), async (stream) => {
      const lp = lpStream(stream);
      await lp.read();
      await lp.write(response);
      await stream.close();
    });
    await expect(host.network.getHeadersByNumber(raw.peerId, 1, 2)).rejects.toThrow(code(P2PErrorCode.BAD_RESPONSE));
    await expect(host.network.getHeadersByNumber(raw.peerId, 2, 3)).rejects.toThrow(code(P2PErrorCode.BAD_RESPONSE));
    await expect(host.network.getHeadersByHash(raw.peerId, [blocks[0]!.hash()])).rejects.toThrow(
      code(P2PErrorCode.BAD_RESPONSE),
    );
    expect(host.scoring.of(raw.peerId).filter((e) => e === PeerEvent.UNEXPECTED_MESSAGE)).toHaveLength(3);
    response = encodeHeadersResponse(blocks.slice(0, 3).map((b) => b.header));
    expect((await host.network.getHeadersByNumber(raw.peerId, 1, 3)).map((h) => h.number)).toEqual([1, 2, 3]);
  });

  it("garbage, over-the-cap and oversized requests to our server: INVALID_MESSAGE, stream reset", async () => {
    const {host, raw} = await hostAndRawPeer();
    const requests = [
      frame(Uint8Array.of(0xc3, 0x01)),
      frame(encodeRlp([new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(MAX_HEADERS_PER_REQUEST + 1)])),
      varint(MAX_MESSAGE_BYTES + 1),
    ];
    for (const [i, request] of requests.entries()) {
      const stream = await raw.openRaw(host.network.peerId, protocolOf("headers"));
      stream.send(request);
      await stream.close().catch(() => undefined);
      await waitFor(
        () => host.scoring.of(raw.peerId).filter((e) => e === PeerEvent.INVALID_MESSAGE).length === i + 1,
        `INVALID_MESSAGE ${i + 1}`,
      );
      await expect(lpStream(stream).read()).rejects.toThrow();
    }
    // A valid request on the same connection is still served.
    const stream = await raw.openRaw(host.network.peerId, protocolOf("headers"));
    const lp = lpStream(stream);
    await lp.write(encodeHeadersRequest({kind: "byNumber", start: 0, count: 2}));
    await stream.close();
    expect((await lp.read()).byteLength).toBeGreaterThan(100);
  });

  it("a peer over its request budget is refused (REPEATED_MESSAGE) while another peer is still served", async () => {
    // The clock stands still (Date only; timers run), so the bucket never refills: of 200 requests
    // exactly the burst of 100 is served, however slowly a loaded machine sends them.
    vi.useFakeTimers({toFake: ["Date"], now: Date.now()});
    const {host, raw} = await hostAndRawPeer();
    const request = encodeHeadersRequest({kind: "byNumber", start: 1, count: 1});
    let refused = 0;
    await Promise.all(
      Array.from({length: 4}, async () => {
        for (let i = 0; i < 50; i++) {
          const stream = await raw.openRaw(host.network.peerId, protocolOf("headers"));
          const lp = lpStream(stream);
          try {
            await lp.write(request);
            await stream.close();
            await lp.read();
          } catch {
            refused++;
          }
        }
      }),
    );
    vi.useRealTimers();
    expect(refused).toBe(100);
    expect(host.scoring.of(raw.peerId).filter((e) => e === PeerEvent.REPEATED_MESSAGE).length).toBe(refused);
    const client = await startHost();
    await connect(client, host);
    expect(await client.network.getHeadersByNumber(host.network.peerId, 1, 2)).toHaveLength(2);
  });

  it("a stream that sends nothing is closed after the read timeout (TIMEOUT_MESSAGE)", async () => {
    const {host, raw} = await hostAndRawPeer();
    const stream = await raw.openRaw(host.network.peerId, protocolOf("bodies"));
    await waitFor(
      () => host.scoring.of(raw.peerId).includes(PeerEvent.TIMEOUT_MESSAGE),
      "TIMEOUT_MESSAGE",
      TEST_TIMEOUT_MS * 3,
    );
    await expect(lpStream(stream).read()).rejects.toThrow();
  });
});

function protocolOf(kind: "headers" | "bodies"): string {
  return `/xchain/7771/${kind}/1`;
}

function varint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Uint8Array.from(out);
}

function frame(bytes: Uint8Array): Uint8Array {
  const prefix = varint(bytes.length);
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix);
  out.set(bytes, prefix.length);
  return out;
}

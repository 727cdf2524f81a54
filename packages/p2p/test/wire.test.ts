/** The RLP codecs of xchain's messages: round trips, caps, and rejection of anything malformed. */
import {Block, type BlockHeader, createRemascTransaction, encodeRlp, type RlpItem} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import fc from "fast-check";
import {beforeAll, describe, expect, it} from "vitest";
import {P2PError, P2PErrorCode} from "../src/errors.ts";
import {MAX_BODIES_PER_REQUEST, MAX_HEADERS_PER_REQUEST, type PeerStatus} from "../src/types.ts";
import {
  decodeBodiesRequest,
  decodeBodiesResponse,
  encodeBodiesRequest,
  encodeBodiesResponse,
  encodeBody,
} from "../src/wire/bodies.ts";
import {decodeGossipBlock, decodeGossipTransaction} from "../src/wire/gossip.ts";
import {
  decodeHeadersRequest,
  decodeHeadersResponse,
  encodeHeadersRequest,
  encodeHeadersResponse,
} from "../src/wire/headers.ts";
import {decodeStatus, encodeStatus} from "../src/wire/status.ts";
import {buildBlocks, decodeOptions, regtest, transfer} from "./support/chain.ts";

const hex = (b: Uint8Array) => bytesToHex(b);
const hashArb = fc.uint8Array({minLength: 32, maxLength: 32});

function expectInvalid(decode: () => unknown): void {
  try {
    decode();
  } catch (e) {
    expect(e).toBeInstanceOf(P2PError);
    expect((e as P2PError).code).toBe(P2PErrorCode.INVALID_MESSAGE);
    return;
  }
  throw new Error("decoded without an error");
}

const status: PeerStatus = {
  protocolVersion: 1,
  networkId: 7771,
  genesisHash: new Uint8Array(32).fill(1),
  bestHash: new Uint8Array(32).fill(2),
  bestNumber: 12,
  totalDifficulty: 12345678901234567890n,
};

let blocks: Block[];
let headers: BlockHeader[];
beforeAll(async () => {
  blocks = (await buildBlocks(3)).blocks;
  headers = blocks.map((b) => b.header);
});

describe("status", () => {
  it("round-trips any status", () => {
    const arb = fc.record({
      protocolVersion: fc.integer({min: 0, max: 2 ** 32 - 1}),
      networkId: fc.integer({min: 0, max: 2 ** 32 - 1}),
      genesisHash: hashArb,
      bestHash: hashArb,
      bestNumber: fc.integer({min: 0, max: Number.MAX_SAFE_INTEGER}),
      totalDifficulty: fc.bigInt({min: 0n, max: 2n ** 256n - 1n}),
    });
    fc.assert(
      fc.property(arb, (s) => {
        expect(decodeStatus(encodeStatus(s))).toEqual(s);
      }),
    );
  });

  it("refuses a wrong field count, short hashes, non-minimal and oversized numbers", () => {
    const fields = (): RlpItem[] => [
      Uint8Array.of(1),
      Uint8Array.of(0x1e, 0x5b),
      status.genesisHash,
      status.bestHash,
      Uint8Array.of(12),
      Uint8Array.of(5),
    ];
    expect(decodeStatus(encodeRlp(fields())).networkId).toBe(7771);
    const bad: RlpItem[][] = [
      fields().slice(0, 5),
      [...fields(), Uint8Array.of(1)],
      Object.assign(fields(), {2: new Uint8Array(31)}),
      Object.assign(fields(), {3: [new Uint8Array(32)]}),
      Object.assign(fields(), {4: Uint8Array.of(0, 12)}),
      Object.assign(fields(), {1: new Uint8Array(5).fill(1)}),
      Object.assign(fields(), {5: new Uint8Array(33).fill(1)}),
      Object.assign(fields(), {4: new Uint8Array(8).fill(0xff)}),
    ];
    for (const items of bad) expectInvalid(() => decodeStatus(encodeRlp(items)));
    expectInvalid(() => decodeStatus(new Uint8Array(0)));
    expectInvalid(() => decodeStatus(Uint8Array.of(0x85, 1, 2)));
    expectInvalid(() => decodeStatus(encodeRlp(new Uint8Array(6))));
  });
});

describe("headers", () => {
  it("round-trips requests by number and by hash", () => {
    fc.assert(
      fc.property(
        fc.integer({min: 0, max: Number.MAX_SAFE_INTEGER}),
        fc.integer({min: 0, max: MAX_HEADERS_PER_REQUEST}),
        (start, count) => {
          expect(decodeHeadersRequest(encodeHeadersRequest({kind: "byNumber", start, count}))).toEqual({
            kind: "byNumber",
            start,
            count,
          });
        },
      ),
    );
    fc.assert(
      fc.property(fc.array(hashArb, {maxLength: MAX_HEADERS_PER_REQUEST}), (hashes) => {
        expect(decodeHeadersRequest(encodeHeadersRequest({kind: "byHash", hashes}))).toEqual({kind: "byHash", hashes});
      }),
      {numRuns: 20},
    );
  });

  it("refuses requests over the cap, unknown selectors and malformed requests", () => {
    const over = MAX_HEADERS_PER_REQUEST + 1;
    expectInvalid(() => decodeHeadersRequest(encodeRlp([new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(over)])));
    const hashes = Array.from({length: over}, () => new Uint8Array(32));
    expectInvalid(() => decodeHeadersRequest(encodeRlp([Uint8Array.of(1), hashes])));
    expectInvalid(() => decodeHeadersRequest(encodeRlp([Uint8Array.of(2), []])));
    expectInvalid(() => decodeHeadersRequest(encodeRlp([Uint8Array.of(0), Uint8Array.of(1), Uint8Array.of(1)])));
    expectInvalid(() => decodeHeadersRequest(encodeRlp([new Uint8Array(0), Uint8Array.of(1)])));
    expectInvalid(() => decodeHeadersRequest(encodeRlp([Uint8Array.of(1), [new Uint8Array(20)]])));
    expectInvalid(() => decodeHeadersRequest(encodeRlp([Uint8Array.of(1), new Uint8Array(32)])));
    expectInvalid(() => decodeHeadersRequest(encodeRlp([])));
    for (const request of [
      {kind: "byNumber", start: 0, count: over},
      {kind: "byNumber", start: -1, count: 1},
      {kind: "byHash", hashes},
    ] as const) {
      expect(() => encodeHeadersRequest(request)).toThrowError(
        expect.objectContaining({code: P2PErrorCode.INVALID_REQUEST}),
      );
    }
  });

  it("round-trips a response of full headers, and refuses one over the cap or with a bad header", () => {
    const decoded = decodeHeadersResponse(encodeHeadersResponse(headers), regtest);
    expect(decoded.map((h) => hex(h.hash()))).toEqual(headers.map((h) => hex(h.hash())));
    expect(decoded.map((h) => hex(h.encode()))).toEqual(headers.map((h) => hex(h.encode())));
    expect(decodeHeadersResponse(encodeHeadersResponse([]), regtest)).toEqual([]);
    const first = headers[0] as BlockHeader;
    const many = Array.from({length: MAX_HEADERS_PER_REQUEST + 1}, () => first);
    expectInvalid(() => decodeHeadersResponse(encodeHeadersResponse(many), regtest));
    expectInvalid(() => decodeHeadersResponse(encodeRlp([[new Uint8Array(32)]]), regtest));
    expectInvalid(() => decodeHeadersResponse(encodeRlp([first.encode()]), regtest));
  });
});

describe("bodies", () => {
  it("round-trips requests and refuses more hashes than the cap", () => {
    fc.assert(
      fc.property(fc.array(hashArb, {maxLength: MAX_BODIES_PER_REQUEST}), (hashes) => {
        expect(decodeBodiesRequest(encodeBodiesRequest(hashes))).toEqual(hashes);
      }),
      {numRuns: 20},
    );
    const over = Array.from({length: MAX_BODIES_PER_REQUEST + 1}, () => new Uint8Array(32));
    expectInvalid(() => decodeBodiesRequest(encodeRlp(over)));
    expect(() => encodeBodiesRequest(over)).toThrowError(expect.objectContaining({code: P2PErrorCode.INVALID_REQUEST}));
    expectInvalid(() => decodeBodiesRequest(encodeRlp([new Uint8Array(33)])));
    expectInvalid(() => decodeBodiesRequest(encodeRlp(new Uint8Array(32))));
  });

  it("round-trips bodies with transactions (REMASC last) and uncles, byte for byte", () => {
    const bytes = encodeBodiesResponse(blocks.map((b) => encodeBody(b)));
    const bodies = decodeBodiesResponse(bytes, decodeOptions);
    expect(bodies).toHaveLength(3);
    expect(bodies[0]?.transactions).toHaveLength(2);
    expect(bodies[2]?.uncles).toHaveLength(1);
    bodies.forEach((body, i) => {
      const block = blocks[i] as Block;
      const rebuilt = new Block(block.header, body.transactions, body.uncles);
      expect(hex(rebuilt.encode())).toBe(hex(block.encode()));
    });
  });

  it("refuses a REMASC transaction that is not last, a wrong chain id, bad shapes and too many bodies", () => {
    const remasc = createRemascTransaction(1);
    const tx = transfer(0n);
    const body = (txs: RlpItem[], uncles: RlpItem[] = []): Uint8Array => encodeRlp([[txs, uncles]]);
    expect(
      decodeBodiesResponse(body([[...tx.receivedFields], [...remasc.receivedFields]]), decodeOptions),
    ).toHaveLength(1);
    expectInvalid(() =>
      decodeBodiesResponse(body([[...remasc.receivedFields], [...tx.receivedFields]]), decodeOptions),
    );
    expectInvalid(() =>
      decodeBodiesResponse(body([[...tx.receivedFields]]), {...decodeOptions, chainId: decodeOptions.chainId + 1}),
    );
    expectInvalid(() => decodeBodiesResponse(encodeRlp([[[]]]), decodeOptions));
    expectInvalid(() => decodeBodiesResponse(encodeRlp([[new Uint8Array(1), []]]), decodeOptions));
    expectInvalid(() => decodeBodiesResponse(body([], [[new Uint8Array(3)]]), decodeOptions));
    const many = Array.from({length: MAX_BODIES_PER_REQUEST + 1}, (): RlpItem => [[], []]);
    expectInvalid(() => decodeBodiesResponse(encodeRlp(many), decodeOptions));
  });
});

describe("lists of encoded items", () => {
  it("encodeBodiesResponse equals the RLP list of the bodies, short and long", () => {
    for (const sizes of [[], [0], [3, 50], [54], [55], [56], [1000, 70000]]) {
      const items = sizes.map((n) => new Uint8Array(n).fill(0x81));
      expect(hex(encodeBodiesResponse(items.map((b) => encodeRlp(b))))).toBe(hex(encodeRlp(items)));
    }
  });
});

describe("gossip payloads", () => {
  it("decodes a block and a transaction, and refuses garbage and a gossiped REMASC transaction", () => {
    const block = blocks[0] as Block;
    expect(hex(decodeGossipBlock(block.encode(), decodeOptions).hash())).toBe(hex(block.hash()));
    const tx = transfer(3n);
    expect(hex(decodeGossipTransaction(tx.encode(), decodeOptions).hash())).toBe(hex(tx.hash()));
    expectInvalid(() => decodeGossipBlock(block.header.encode(), decodeOptions));
    expectInvalid(() => decodeGossipTransaction(createRemascTransaction(1).encode(), decodeOptions));
    expectInvalid(() => decodeGossipTransaction(Uint8Array.of(2, 0xc0), decodeOptions));
  });
});

describe("every decoder on hostile input", () => {
  const decoders: Record<string, (bytes: Uint8Array) => unknown> = {
    status: decodeStatus,
    headersRequest: decodeHeadersRequest,
    headersResponse: (b) => decodeHeadersResponse(b, regtest).map((h) => h.hash()),
    bodiesRequest: decodeBodiesRequest,
    bodiesResponse: (b) => decodeBodiesResponse(b, decodeOptions),
    block: (b) => decodeGossipBlock(b, decodeOptions).encode(),
    transaction: (b) => decodeGossipTransaction(b, decodeOptions).hash(),
  };

  function failsOnlyWithInvalidMessage(bytes: Uint8Array): void {
    for (const [name, decode] of Object.entries(decoders)) {
      try {
        decode(bytes);
      } catch (e) {
        if (!(e instanceof P2PError) || e.code !== P2PErrorCode.INVALID_MESSAGE) {
          throw new Error(`${name} threw ${String(e)}`, {cause: e});
        }
      }
    }
  }

  const fieldBytes = fc.oneof(
    fc.constantFrom(0, 1, 20, 32, 33).chain((n) => fc.uint8Array({minLength: n, maxLength: n})),
    fc.uint8Array({maxLength: 12}),
  );
  const rlpTree: fc.Arbitrary<RlpItem> = fc.letrec<{item: RlpItem}>((tie) => ({
    item: fc.oneof({depthSize: "small"}, fieldBytes, fc.array(tie("item"), {maxLength: 20})),
  })).item;

  it("random bytes and random RLP trees", () => {
    fc.assert(fc.property(fc.uint8Array({maxLength: 400}), failsOnlyWithInvalidMessage), {numRuns: 1000});
    fc.assert(
      fc.property(rlpTree, (item) => failsOnlyWithInvalidMessage(encodeRlp(item))),
      {numRuns: 1000},
    );
  });

  it("valid messages with bytes changed or cut", () => {
    const valid = [
      encodeStatus(status),
      encodeHeadersRequest({kind: "byNumber", start: 5, count: 10}),
      encodeHeadersResponse(headers),
      encodeBodiesRequest([new Uint8Array(32)]),
      encodeBodiesResponse(blocks.map((b) => encodeBody(b))),
      (blocks[0] as Block).encode(),
    ];
    const mutation = fc.record({
      source: fc.constantFrom(...valid),
      edits: fc.array(fc.record({at: fc.nat(), byte: fc.integer({min: 0, max: 255})}), {minLength: 1, maxLength: 4}),
      cut: fc.option(fc.nat(), {nil: undefined}),
    });
    fc.assert(
      fc.property(mutation, ({source, edits, cut}) => {
        const bytes = source.slice(0, cut === undefined ? undefined : cut % (source.length + 1));
        for (const {at, byte} of edits) if (bytes.length > 0) bytes[at % bytes.length] = byte;
        failsOnlyWithInvalidMessage(bytes);
      }),
      {numRuns: 1000},
    );
  });
});

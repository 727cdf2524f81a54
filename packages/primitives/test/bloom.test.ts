import {bytesToHex, hexToBytes, keccak256} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {bloomContains, bloomOr, type Log, logsBloom} from "../src/index.ts";

/** The bit positions set in a bloom, bit 0 being the lowest bit of the last byte. */
function setBits(bloom: Uint8Array): number[] {
  const bits: number[] = [];
  for (let bit = 0; bit < 2048; bit++) if (bloom[255 - (bit >> 3)]! & (1 << (bit & 7))) bits.push(bit);
  return bits;
}

describe("logs bloom", () => {
  const address = hexToBytes("0000000000000000000000000000000001000008");
  const topic = new Uint8Array(32).fill(7);

  it("sets the three bits of Ethereum's bloom for the address", () => {
    const h = keccak256(address);
    const expected = [0, 2, 4].map((i) => ((h[i]! << 8) | h[i + 1]!) % 2048);
    const bloom = logsBloom([{address, topics: [], data: new Uint8Array(0)}]);
    expect(setBits(bloom)).toEqual([...new Set(expected)].sort((a, b) => a - b));
  });

  it("matches a known Ethereum bloom (empty address, no topics)", () => {
    // keccak256("") = c5d24601…; bits 0x05d2=1490, 0x4601&2047=1537, 0x86f7&2047=1783.
    const bloom = logsBloom([{address: new Uint8Array(0), topics: [], data: new Uint8Array(0)}]);
    expect(setBits(bloom)).toEqual([1490, 1537, 1783]);
  });

  it("contains the address and topics of its logs, not other values", () => {
    const logs: Log[] = [{address, topics: [topic], data: Uint8Array.of(1)}];
    const bloom = logsBloom(logs);
    expect(bloomContains(bloom, address)).toBe(true);
    expect(bloomContains(bloom, topic)).toBe(true);
    expect(bloomContains(bloom, Uint8Array.of(1))).toBe(false);
    expect(bloomContains(new Uint8Array(256), address)).toBe(false);
  });

  it("bloomOr is the bloom of the concatenated logs", () => {
    const logArb = fc.record({
      address: fc.uint8Array({minLength: 20, maxLength: 20}),
      topics: fc.array(fc.uint8Array({minLength: 32, maxLength: 32}), {maxLength: 4}),
      data: fc.constant(new Uint8Array(0)),
    });
    fc.assert(
      fc.property(fc.array(logArb, {maxLength: 3}), fc.array(logArb, {maxLength: 3}), (a, b) => {
        const union = bloomOr(logsBloom(a), logsBloom(b));
        expect(bytesToHex(union)).toBe(bytesToHex(logsBloom([...a, ...b])));
        for (const l of [...a, ...b])
          for (const v of [l.address, ...l.topics]) expect(bloomContains(union, v)).toBe(true);
      }),
      {numRuns: 300},
    );
  });
});

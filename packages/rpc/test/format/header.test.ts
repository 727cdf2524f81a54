/** The raw header of `xchain_getRawBlockHeaderBy*` against the real mainnet headers of the shared vectors. */
import {getChainspec} from "@xchain/chainspec";
import {BlockHeader} from "@xchain/primitives";
import {readMainnetHeaderLines} from "@xchain/test-utils";
import {hexToBytes, keccak256, toData} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {formatRawHeader} from "../../src/format/header.ts";

const mainnet = getChainspec("mainnet");
const lines = readMainnetHeaderLines();

describe("formatRawHeader", () => {
  it("hashes to the block hash, which the next real mainnet header names as parent (docs/protocol/header.md §3.2)", () => {
    const headers = lines.map((line) => BlockHeader.decode(hexToBytes(line), mainnet));
    for (let i = 0; i + 1 < headers.length; i++) {
      const raw = formatRawHeader(headers[i]!);
      expect(toData(keccak256(hexToBytes(raw)))).toBe(toData(headers[i + 1]!.parentHash));
      // RSKIP-92 is active: the merkle proof and coinbase of the full encoding are left out.
      expect(raw.length).toBeLessThan(lines[i]!.length + 2);
    }
  });

  it("keeps the merkle proof and coinbase where RSKIP-92 is not active", () => {
    const header = BlockHeader.decode(hexToBytes(lines[0]!), {isRskip92Active: () => false});
    expect(formatRawHeader(header)).toBe(`0x${lines[0]}`);
  });
});

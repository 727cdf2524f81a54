import {getChainspec} from "@xchain/chainspec";
import {readMainnetHeaderLines} from "@xchain/test-utils";
import {describe, expect, it} from "vitest";
import {HeaderFileVerifier, type HeaderVerdict} from "../src/index.ts";

const NOW = Date.UTC(2026, 0, 1) / 1000;

function verifyAll(lines: string[]): HeaderVerdict[] {
  const verifier = new HeaderFileVerifier(getChainspec("mainnet"), NOW);
  return lines.map((text, i) => verifier.verifyLine(text, i + 1));
}

describe("HeaderFileVerifier", () => {
  const lines = readMainnetHeaderLines();

  it("accepts every real mainnet header and checks fork-detection data from the 450th on", () => {
    const verdicts = verifyAll(lines);
    expect(verdicts.filter((v) => !v.valid)).toEqual([]);
    const checked = verdicts.map((v) => v.valid && v.forkDetectionChecked);
    expect(checked.slice(0, 449).every((c) => c === false)).toBe(true);
    expect(checked.slice(449).every((c) => c === true)).toBe(true);
  });

  it("does not check fork-detection data once an ancestor it needs was rejected", () => {
    const broken = [...lines];
    broken[100] = "00";
    const verdicts = verifyAll(broken);
    expect(verdicts[100]).toMatchObject({valid: false, code: "HEADER_DECODE_BAD_RLP"});
    expect(verdicts[101]).toMatchObject({valid: false, code: "HEADER_PARENT_UNAVAILABLE"});
    // Every later header is valid; those whose CPV or uncle window reaches line 101 or 102 go unchecked.
    expect(verdicts.slice(102).every((v) => v.valid)).toBe(true);
  });

  it("rejects a header from a day in the future relative to the verifier's clock", () => {
    const verifier = new HeaderFileVerifier(getChainspec("mainnet"), 1_600_000_000);
    const verdict = verifier.verifyLine(lines[0]!, 1);
    expect(verdict).toMatchObject({valid: false, code: "HEADER_TIMESTAMP_IN_FUTURE"});
  });
});

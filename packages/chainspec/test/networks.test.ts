import {readJsonVector} from "@xchain/test-utils";
import {describe, expect, it} from "vitest";
import {getChainspec, networkNames, type Rskip} from "../src/index.ts";

interface VectorNetwork {
  chainId: number;
  p2pNetworkId: number;
  durationLimit: number;
  difficultyBoundDivisor: number;
  minimumDifficulty: string;
  newBlockMaxSecondsInTheFuture: number;
  minGasLimit: number;
  remasc: {maturity: number; syntheticSpan: number} & Partial<Record<RemascDivisor, number>>;
  activation: Record<string, number>;
}

type RemascDivisor =
  | "rskLabsDivisor"
  | "federationDivisor"
  | "punishmentDivisor"
  | "publishersDivisor"
  | "lateUncleInclusionPunishmentDivisor";

// Header versions 1 and 2 stay off: xchain's networks produce version-0 headers (docs/protocol/README.md §2).
const XCHAIN_OVERRIDES = new Set(["RSKIP144", "RSKIP351", "RSKIP535"]);

describe("network parameters", () => {
  const vectors = readJsonVector<{networks: Record<string, VectorNetwork>}>("network-params.json").networks;

  for (const name of networkNames) {
    it(`${name} matches network-params.json`, () => {
      const spec = getChainspec(name);
      const v = vectors[name]!;
      expect(spec.params.chainId).toBe(v.chainId);
      expect(spec.params.p2pNetworkId).toBe(v.p2pNetworkId);
      expect(spec.params.durationLimitSeconds).toBe(v.durationLimit);
      expect(spec.params.difficultyBoundDivisor).toBe(v.difficultyBoundDivisor);
      expect(spec.params.minimumDifficulty).toBe(BigInt(v.minimumDifficulty));
      expect(spec.params.newBlockMaxSecondsInTheFuture).toBe(v.newBlockMaxSecondsInTheFuture);
      expect(spec.params.minGasLimit).toBe(BigInt(v.minGasLimit));
      expect(spec.params.remascMaturity).toBe(v.remasc.maturity);
      expect(spec.params.remasc.syntheticSpan).toBe(BigInt(v.remasc.syntheticSpan));
      const divisors: RemascDivisor[] = [
        "rskLabsDivisor",
        "federationDivisor",
        "punishmentDivisor",
        "publishersDivisor",
        "lateUncleInclusionPunishmentDivisor",
      ];
      for (const divisor of divisors) {
        const expected = v.remasc[divisor];
        if (expected !== undefined) expect(spec.params.remasc[divisor], `${name} ${divisor}`).toBe(BigInt(expected));
      }
      for (const [rskip, height] of Object.entries(v.activation)) {
        const expected = XCHAIN_OVERRIDES.has(rskip) ? -1 : height;
        expect(spec.params.activation[rskip as Rskip], `${name} ${rskip}`).toBe(expected);
      }
    });
  }

  it("answers isActive by height", () => {
    const spec = getChainspec("mainnet");
    expect(spec.isActive("RSKIP92", 728_999)).toBe(false);
    expect(spec.isActive("RSKIP92", 729_000)).toBe(true);
    expect(spec.isActive("RSKIP144", 10_000_000)).toBe(false);
    expect(spec.difficultyBoundDivisor(2_392_699)).toBe(50n);
    expect(spec.difficultyBoundDivisor(2_392_700)).toBe(400n);
    expect(getChainspec("testnet").minimumDifficulty(2_581_800)).toBe(550_000_000n);
    expect(getChainspec("testnet").maxBtcRskTimestampDiffSeconds(3_103_000)).toBe(7200);
    expect(getChainspec("regtest").hasUmmRoot(0)).toBe(false);
    expect(getChainspec("regtest").hasUmmRoot(1)).toBe(true);
  });
});

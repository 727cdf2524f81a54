import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {BlockHeader, type HeaderEncodingRules, type HeaderValues} from "../src/index.ts";

const rules: HeaderEncodingRules = {isRskip92Active: () => true};

const bytes = (length: number) => fc.uint8Array({minLength: length, maxLength: length});
const oneOfLengths = (...lengths: number[]) => fc.oneof(...lengths.map(bytes));
const upTo = (bits: number) => fc.bigInt({min: 0n, max: 2n ** BigInt(bits) - 1n});

const baseValues = fc.record({
  parentHash: bytes(32),
  unclesHash: bytes(32),
  coinbase: oneOfLengths(0, 20),
  stateRoot: oneOfLengths(0, 32),
  txTrieRoot: oneOfLengths(0, 32),
  receiptTrieRoot: oneOfLengths(0, 32),
  logsBloom: bytes(256),
  difficulty: upTo(256),
  number: fc.maxSafeNat(),
  gasLimit: upTo(256),
  gasUsed: upTo(63),
  timestamp: fc.maxSafeNat(),
  extraData: fc.uint8Array({maxLength: 32}),
  paidFees: upTo(256),
  minimumGasPrice: upTo(256),
  uncleCount: fc.integer({min: 0, max: 2 ** 31 - 1}),
});
const mergedMining = fc.record({
  bitcoinHeader: bytes(80),
  merkleProof: fc.uint8Array({maxLength: 320}),
  coinbase: fc.uint8Array({maxLength: 200}),
});
const headerValues: fc.Arbitrary<HeaderValues> = fc
  .tuple(baseValues, fc.option(oneOfLengths(0, 20), {nil: undefined}), fc.option(mergedMining, {nil: undefined}))
  .map(([base, ummRoot, mm]) => ({
    ...base,
    ...(ummRoot === undefined ? {} : {ummRoot}),
    ...(mm === undefined ? {} : {mergedMining: mm}),
  }));

describe("BlockHeader properties", () => {
  it("decode(encode(fromValues(x))) == x, with and without ummRoot and merged-mining fields", () => {
    fc.assert(
      fc.property(headerValues, (values) => {
        const header = BlockHeader.fromValues(values, rules);
        const decoded = BlockHeader.decode(header.encode(), rules);
        for (const [field, value] of Object.entries(values)) {
          expect(decoded[field as keyof HeaderValues], field).toEqual(value);
        }
        expect(decoded.ummRoot).toEqual(values.ummRoot);
        expect(decoded.mergedMining).toEqual(values.mergedMining);
        expect(decoded.encode()).toEqual(header.encode());
        expect(decoded.hash()).toEqual(header.hash());
        expect(decoded.baseHashForMergedMining()).toEqual(header.baseHashForMergedMining());
      }),
      {numRuns: 500},
    );
  });
});

import {concatBytes} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {
  BitcoinDecodeError,
  GenesisMerkleProofValidator,
  MergedMiningError,
  type MergedMiningProofInput,
  verifyMergedMiningProof,
} from "../src/index.ts";
import {loadMainnetHeaders, mainnetInput} from "./fixtures.ts";

function onlyMergedMiningError(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    expect(e instanceof MergedMiningError, String(e)).toBe(true);
  }
}

const flagsArb = fc.record({rskip92Active: fc.boolean(), rskip180Active: fc.boolean()});

describe("verifyMergedMiningProof on arbitrary input", () => {
  it("throws only MergedMiningError on random fields", () => {
    fc.assert(
      fc.property(
        fc.record({
          bitcoinHeader: fc.oneof(fc.uint8Array({minLength: 80, maxLength: 80}), fc.uint8Array({maxLength: 100})),
          merkleProof: fc.oneof(fc.uint8Array({maxLength: 200}), fc.uint8Array({minLength: 64, maxLength: 64})),
          coinbase: fc.uint8Array({maxLength: 300}),
          hashForMergedMining: fc.uint8Array({minLength: 32, maxLength: 32}),
          difficulty: fc.bigInt({min: 0n, max: 1n << 70n}),
        }),
        flagsArb,
        (fields, flags) => onlyMergedMiningError(() => verifyMergedMiningProof({...fields, ...flags})),
      ),
      {numRuns: 2000},
    );
  });

  it("throws only MergedMiningError when one byte of a real proof changes", () => {
    const inputs = loadMainnetHeaders()
      .filter((_, i) => i % 100 === 0)
      .map(mainnetInput);
    const fields = ["bitcoinHeader", "merkleProof", "coinbase", "hashForMergedMining"] as const;
    fc.assert(
      fc.property(
        fc.nat(inputs.length - 1),
        fc.constantFrom(...fields),
        fc.nat(),
        fc.integer({min: 1, max: 255}),
        fc.bigInt({min: 0n, max: 10n}),
        (which, field, at, mask, difficulty) => {
          const input: MergedMiningProofInput = {...inputs[which]!, difficulty};
          const bytes = input[field].slice();
          if (bytes.length > 0) bytes[at % bytes.length] = (bytes[at % bytes.length] as number) ^ mask;
          onlyMergedMiningError(() => verifyMergedMiningProof({...input, [field]: bytes}));
        },
      ),
      {numRuns: 2000},
    );
  });

  it("GenesisMerkleProofValidator throws only MergedMiningError on random trees", () => {
    fc.assert(
      fc.property(fc.uint8Array({maxLength: 200}), fc.uint8Array({minLength: 32, maxLength: 32}), (bytes, root) => {
        onlyMergedMiningError(() => new GenesisMerkleProofValidator(bytes).verify(root, root));
      }),
      {numRuns: 2000},
    );
  });

  it("GenesisMerkleProofValidator throws only MergedMiningError on well-formed random trees", () => {
    const treeArb = fc.record({
      count: fc.integer({min: 0, max: 40}),
      hashes: fc.array(fc.uint8Array({minLength: 32, maxLength: 32}), {maxLength: 12}),
      flags: fc.uint8Array({maxLength: 4}),
    });
    fc.assert(
      fc.property(treeArb, ({count, hashes, flags}) => {
        const tree = concatBytes(
          Uint8Array.of(count, 0, 0, 0, hashes.length),
          ...hashes,
          Uint8Array.of(flags.length),
          flags,
        );
        onlyMergedMiningError(() => new GenesisMerkleProofValidator(tree).verify(hashes[0] ?? tree, tree));
      }),
      {numRuns: 2000},
    );
  });

  it("never leaks the Bitcoin decoder's error from a partial merkle tree", () => {
    const tree = Uint8Array.of(1, 0, 0, 0, 0xfd, 0xff);
    let thrown: unknown;
    try {
      new GenesisMerkleProofValidator(tree);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MergedMiningError);
    expect(thrown).not.toBeInstanceOf(BitcoinDecodeError);
  });
});

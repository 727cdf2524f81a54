import {BlockHeader} from "@xchain/primitives";
import {bytesToHex, hexToBytes, reverseBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  bitcoinBlockHash,
  MergedMiningErrorCode,
  sealedHashForMergedMining,
  verifyHeaderMergedMining,
  verifyMergedMiningProof,
} from "../src/index.ts";
import {
  expectCode,
  loadMainnetHeaders,
  mainnetInput,
  mainnetMergedMiningRules,
  mainnetRules,
  samples,
  testnetBlocks,
  testnetMergedMiningRules,
  testnetRules,
} from "./fixtures.ts";

describe("the six mainnet samples", () => {
  for (const s of samples) {
    const header = BlockHeader.decode(hexToBytes(s.headerRlp), mainnetRules);
    const rules = mainnetMergedMiningRules(s.number);

    it(`block ${s.number}: sealed hashForMergedMining`, () => {
      expect(bytesToHex(sealedHashForMergedMining(header, rules.forkDetectionActive))).toBe(s.hashForMergedMining);
    });

    it(`block ${s.number}: Bitcoin block hash`, () => {
      expect(bytesToHex(reverseBytes(bitcoinBlockHash(hexToBytes(s.bitcoinHeader))))).toBe(s.bitcoinBlockHash_display);
    });

    it(`block ${s.number}: the proof passes`, () => {
      expect(() => verifyMergedMiningProof(mainnetInput(header))).not.toThrow();
      expect(() => verifyHeaderMergedMining(header, rules)).not.toThrow();
    });
  }
});

describe("the 1,060 consecutive mainnet headers", () => {
  const headers = loadMainnetHeaders();

  it("all pass, through the proof input and through the header", () => {
    for (const h of headers) {
      verifyMergedMiningProof(mainnetInput(h));
      verifyHeaderMergedMining(h, mainnetMergedMiningRules(h.number));
    }
  });

  it("all carry fork-detection data ending in their own height", () => {
    for (const h of headers) {
      const hash = sealedHashForMergedMining(h, true);
      expect(new DataView(hash.buffer, hash.byteOffset).getUint32(28)).toBe(h.number);
    }
  });
});

describe("the testnet RPC blocks", () => {
  for (const b of testnetBlocks) {
    it(`block ${b.number}`, () => {
      const header = BlockHeader.decode(hexToBytes(b.headerRlpFull), testnetRules);
      const rules = testnetMergedMiningRules(b.number);
      const hash = sealedHashForMergedMining(header, rules.forkDetectionActive);
      expect(bytesToHex(hash)).toBe(b.computedHashForMergedMining);
      verifyHeaderMergedMining(header, rules);
    });
  }
});

describe("headers without merged-mining fields", () => {
  const sample = samples[0]!;
  const sealed = BlockHeader.decode(hexToBytes(sample.headerRlp), mainnetRules);
  const unsealed = BlockHeader.fromValues({...sealed, mergedMining: undefined}, mainnetRules);

  it("have no sealed hashForMergedMining", () => {
    expect(unsealed.mergedMining).toBeUndefined();
    expectCode(() => sealedHashForMergedMining(unsealed, false), MergedMiningErrorCode.COINBASE_MISSING);
  });

  it("fail check 1 as a missing merkle proof", () => {
    expectCode(
      () => verifyHeaderMergedMining(unsealed, mainnetMergedMiningRules(sealed.number)),
      MergedMiningErrorCode.MERKLE_PROOF_INVALID,
    );
  });
});

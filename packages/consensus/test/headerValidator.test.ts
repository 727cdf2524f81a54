import {MergedMiningError, MergedMiningErrorCode, NONCE_OFFSET, parseBitcoinHeader} from "@xchain/merged-mining";
import {describe, expect, it} from "vitest";
import {HeaderErrorCode, validateHeaderAgainstParent, validateHeaderStandalone} from "../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, mainnetHeaders, withValues} from "./helpers.ts";

describe("the validators on 1,060 real mainnet headers", () => {
  const headers = mainnetHeaders();
  const nowSeconds = headers.at(-1)!.timestamp + 1;

  it("passes every header standalone", () => {
    for (const h of headers) {
      expect(
        codeOf(() => validateHeaderStandalone(h, mainnet, {nowSeconds})),
        `block ${h.number}`,
      ).toBeUndefined();
    }
  });

  it("passes every header against its parent from the second on", () => {
    for (let i = 1; i < headers.length; i++) {
      const h = headers[i]!;
      expect(
        codeOf(() => validateHeaderAgainstParent(h, headers[i - 1]!, mainnet)),
        `block ${h.number}`,
      ).toBeUndefined();
    }
  });
});

/** The header with one byte of a merged-mining field flipped. */
function flipMergedMiningByte(field: "bitcoinHeader" | "merkleProof" | "coinbase", offset: number) {
  const {header} = headerAndParent();
  const mm = header.mergedMining!;
  const bytes = Uint8Array.from(mm[field]);
  bytes[offset] = (bytes[offset] as number) ^ 0x01;
  return withValues(header, {mergedMining: {...mm, [field]: bytes}});
}

describe("validateHeaderStandalone on mutated merged-mining fields", () => {
  const nowSeconds = headerAndParent().header.timestamp;

  it("surfaces the proof-of-work check of a flipped Bitcoin nonce byte as a MergedMiningError", () => {
    const err = errorOf(() =>
      validateHeaderStandalone(flipMergedMiningByte("bitcoinHeader", NONCE_OFFSET), mainnet, {nowSeconds}),
    );
    expect(err).toBeInstanceOf(MergedMiningError);
    expect(err.code).toBe(MergedMiningErrorCode.POW_ABOVE_TARGET);
  });

  it("surfaces a flipped merkle proof byte", () => {
    const code = codeOf(() => validateHeaderStandalone(flipMergedMiningByte("merkleProof", 5), mainnet, {nowSeconds}));
    expect(code).toBe(MergedMiningErrorCode.MERKLE_ROOT_MISMATCH);
  });

  it("surfaces a flipped coinbase byte", () => {
    const {header} = headerAndParent();
    const last = header.mergedMining!.coinbase.length - 1;
    const code = codeOf(() => validateHeaderStandalone(flipMergedMiningByte("coinbase", last), mainnet, {nowSeconds}));
    expect(code).toBe(MergedMiningErrorCode.MERKLE_ROOT_MISMATCH);
  });

  it("rejects a header without merged-mining fields", () => {
    const {header} = headerAndParent();
    const code = codeOf(() =>
      validateHeaderStandalone(withValues(header, {mergedMining: undefined}), mainnet, {nowSeconds}),
    );
    expect(code).toBe(HeaderErrorCode.MERGED_MINING_FIELDS_MISSING);
  });
});

describe("validateHeaderStandalone runs the cheap rules before proof of work", () => {
  const {header} = headerAndParent();
  const nowSeconds = header.timestamp;
  const standalone = (h = header, now = nowSeconds) =>
    codeOf(() => validateHeaderStandalone(h, mainnet, {nowSeconds: now}));

  it("reports each broken field with its own code", () => {
    expect(standalone(withValues(header, {extraData: new Uint8Array(33)}))).toBe(HeaderErrorCode.EXTRA_DATA_TOO_LONG);
    expect(standalone(withValues(header, {gasLimit: 2_999_999n, gasUsed: 0n}))).toBe(
      HeaderErrorCode.GAS_LIMIT_BELOW_MINIMUM,
    );
    expect(standalone(withValues(header, {gasUsed: header.gasLimit + 1n}))).toBe(HeaderErrorCode.GAS_USED_ABOVE_LIMIT);
    expect(standalone(withValues(header, {ummRoot: undefined}))).toBe(HeaderErrorCode.UMM_ROOT_PRESENCE);
    expect(standalone(header, header.timestamp - 61)).toBe(HeaderErrorCode.TIMESTAMP_IN_FUTURE);
    const bitcoinTime = parseBitcoinHeader(header.mergedMining!.bitcoinHeader).time;
    expect(standalone(withValues(header, {timestamp: bitcoinTime - 300}))).toBe(HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR);
  });
});

describe("validateHeaderAgainstParent", () => {
  const {header, parent} = headerAndParent();
  const againstParent = (h: typeof header, p = parent) => codeOf(() => validateHeaderAgainstParent(h, p, mainnet));

  it("checks number and parentHash before anything else", () => {
    expect(againstParent(header, header)).toBe(HeaderErrorCode.NUMBER_NOT_PARENT_PLUS_ONE);
    expect(againstParent(withValues(header, {parentHash: new Uint8Array(32)}))).toBe(
      HeaderErrorCode.PARENT_HASH_MISMATCH,
    );
  });

  it("reports each broken field with its own code", () => {
    expect(againstParent(withValues(header, {timestamp: parent.timestamp}))).toBe(
      HeaderErrorCode.TIMESTAMP_NOT_AFTER_PARENT,
    );
    expect(againstParent(withValues(header, {difficulty: header.difficulty - 1n}))).toBe(
      HeaderErrorCode.BAD_DIFFICULTY,
    );
    expect(againstParent(withValues(header, {minimumGasPrice: parent.minimumGasPrice * 2n}))).toBe(
      HeaderErrorCode.MIN_GAS_PRICE_OUT_OF_BAND,
    );
    expect(againstParent(withValues(header, {gasLimit: parent.gasLimit * 2n}))).toBe(
      HeaderErrorCode.GAS_LIMIT_OUT_OF_BAND,
    );
  });
});

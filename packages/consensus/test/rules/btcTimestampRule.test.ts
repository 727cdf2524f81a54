import {parseBitcoinHeader} from "@xchain/merged-mining";
import {describe, expect, it} from "vitest";
import {btcTimestampRule, HeaderErrorCode} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, regtest, testnet, withValues} from "../helpers.ts";

describe("btcTimestampRule", () => {
  const {header} = headerAndParent();
  const bitcoinTime = parseBitcoinHeader(header.mergedMining!.bitcoinHeader).time;
  const at = (timestamp: number, number = header.number) => withValues(header, {timestamp, number});

  it("accepts the real header and a difference of 299 s either way", () => {
    expect(codeOf(() => btcTimestampRule(header, mainnet))).toBeUndefined();
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime + 299), mainnet))).toBeUndefined();
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime - 299), mainnet))).toBeUndefined();
  });

  it("rejects a difference of 300 s either way", () => {
    const err = errorOf(() => btcTimestampRule(at(bitcoinTime + 300), mainnet));
    expect(err.code).toBe(HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR);
    expect(err.type).toMatchObject({bitcoinTime, timestamp: bitcoinTime + 300, maxDiffSeconds: 300});
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime - 300), mainnet))).toBe(HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR);
  });

  it("does not apply before RSKIP-179 (mainnet 3,614,800)", () => {
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime + 3600, 3_614_799), mainnet))).toBeUndefined();
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime + 3600, 3_614_800), mainnet))).toBe(
      HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR,
    );
  });

  it("allows 7200 s on testnet from RSKIP-297", () => {
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime + 7199, 3_103_000), testnet))).toBeUndefined();
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime + 7200, 3_103_000), testnet))).toBe(
      HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR,
    );
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime + 300, 3_102_999), testnet))).toBe(
      HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR,
    );
  });

  it("is disabled on regtest with the rest of the timestamp rule", () => {
    expect(codeOf(() => btcTimestampRule(at(bitcoinTime + 3600, 100), regtest))).toBeUndefined();
  });

  it("requires the merged-mining fields where it applies", () => {
    expect(codeOf(() => btcTimestampRule(withValues(header, {mergedMining: undefined}), mainnet))).toBe(
      HeaderErrorCode.MERGED_MINING_FIELDS_MISSING,
    );
  });
});

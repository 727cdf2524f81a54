import {describe, expect, it} from "vitest";
import {HeaderErrorCode, timestampRule} from "../../src/index.ts";
import {codeOf, errorOf, headerAndParent, mainnet, regtest, testnet} from "../helpers.ts";

describe("timestampRule", () => {
  const {header} = headerAndParent();

  it("accepts a timestamp up to 60 s ahead of the local clock on mainnet", () => {
    expect(codeOf(() => timestampRule(header, mainnet, header.timestamp))).toBeUndefined();
    expect(codeOf(() => timestampRule(header, mainnet, header.timestamp - 60))).toBeUndefined();
  });

  it("rejects a timestamp 61 s ahead", () => {
    const err = errorOf(() => timestampRule(header, mainnet, header.timestamp - 61));
    expect(err.code).toBe(HeaderErrorCode.TIMESTAMP_IN_FUTURE);
    expect(err.type).toMatchObject({timestamp: header.timestamp, maxSecondsInFuture: 60});
  });

  it("uses testnet's 540 s", () => {
    expect(codeOf(() => timestampRule(header, testnet, header.timestamp - 540))).toBeUndefined();
    expect(codeOf(() => timestampRule(header, testnet, header.timestamp - 541))).toBe(
      HeaderErrorCode.TIMESTAMP_IN_FUTURE,
    );
  });

  it("is disabled on regtest", () => {
    expect(codeOf(() => timestampRule(header, regtest, 0))).toBeUndefined();
  });
});

/**
 * REMASC's constants per network, transcribed from rskj's `resources/remasc.json`, `Constants`
 * (uncleGenerationLimit 7, minimumPayableGas 200,000, federatorMinimumPayableGas 50,000;
 * docs/protocol/native-contracts.md §11.1). The maturity is `NetworkParams.remascMaturity`; the
 * federators REMASC pays are the Bridge's genesis federation, `NetworkParams.bridge.genesisFederation`.
 */
import {hexToBytes} from "@xchain/utils";
import type {RemascParams} from "../types.ts";

const DIVISORS = {
  rskLabsDivisor: 5n,
  federationDivisor: 100n,
  publishersDivisor: 10n,
  punishmentDivisor: 10n,
  lateUncleInclusionPunishmentDivisor: 20n,
  minimumPayableGas: 200_000n,
  federatorMinimumPayableGas: 50_000n,
} as const;

/** Regtest: the first payout is at block maturity + syntheticSpan = 15. */
export const regtestRemasc: RemascParams = {
  ...DIVISORS,
  syntheticSpan: 5n,
  rskLabsAddress: hexToBytes("dabadabadabadabadabadabadabadabadaba0001"),
  rskLabsAddressRskip218: hexToBytes("dabadabadabadabadabadabadabadabadaba0001"),
  rskip218: 0,
};

export const testnetRemasc: RemascParams = {
  ...DIVISORS,
  syntheticSpan: 10n,
  rskLabsAddress: hexToBytes("dabadabadabadabadabadabadabadabadaba0003"),
  rskLabsAddressRskip218: hexToBytes("dabadabadabadabadabadabadabadabadaba0003"),
  // iris300
  rskip218: 2_060_500,
};

export const mainnetRemasc: RemascParams = {
  ...DIVISORS,
  syntheticSpan: 10n,
  rskLabsAddress: hexToBytes("14d3065c8eb89895f4df12450ec6b130049f8034"),
  rskLabsAddressRskip218: hexToBytes("dcb12179ba4697350f66224c959bdd9c282818df"),
  // iris300
  rskip218: 3_614_800,
};

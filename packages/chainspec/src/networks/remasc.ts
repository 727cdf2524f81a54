/**
 * REMASC's constants per network, transcribed from rskj's `resources/remasc.json`, `Constants`
 * (uncleGenerationLimit 7, minimumPayableGas 200,000, federatorMinimumPayableGas 50,000) and the
 * genesis federations of `FederationMainNetConstants`, `FederationTestNetConstants` and
 * `FederationRegTestConstants` (docs/protocol/native-contracts.md §11.1). The maturity is
 * `NetworkParams.remascMaturity`.
 */
import {hexToBytes} from "@xchain/utils";
import type {RemascParams} from "../types.ts";

const keys = (hexes: string[]): Uint8Array[] => hexes.map((hex) => hexToBytes(hex));

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
  federationPublicKeys: keys([
    "0362634ab57dae9cb373a5d536e66a8c4f67468bbcfb063809bab643072d78a124",
    "03c5946b3fbae03a654237da863c9ed534e0878657175b132b8ca630f245df04db",
    "02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1",
  ]),
};

export const testnetRemasc: RemascParams = {
  ...DIVISORS,
  syntheticSpan: 10n,
  rskLabsAddress: hexToBytes("dabadabadabadabadabadabadabadabadaba0003"),
  rskLabsAddressRskip218: hexToBytes("dabadabadabadabadabadabadabadabadaba0003"),
  // iris300
  rskip218: 2_060_500,
  federationPublicKeys: keys([
    "039a060badbeb24bee49eb2063f616c0f0f0765d4ca646b20a88ce828f259fcdb9",
    "02afc230c2d355b1a577682b07bc2646041b5d0177af0f98395a46018da699b6da",
    "0344a3c38cd59afcba3edcebe143e025574594b001700dec41e59409bdbd0f2a09",
    "034844a99cd7028aa319476674cc381df006628be71bc5593b8b5fdb32bb42ef85",
  ]),
};

export const mainnetRemasc: RemascParams = {
  ...DIVISORS,
  syntheticSpan: 10n,
  rskLabsAddress: hexToBytes("14d3065c8eb89895f4df12450ec6b130049f8034"),
  rskLabsAddressRskip218: hexToBytes("dcb12179ba4697350f66224c959bdd9c282818df"),
  // iris300
  rskip218: 3_614_800,
  federationPublicKeys: keys([
    "03b53899c390573471ba30e5054f78376c5f797fda26dde7a760789f02908cbad2",
    "027319afb15481dbeb3c426bcc37f9a30e7f51ceff586936d85548d9395bcc2344",
    "0355a2e9bf100c00fc0a214afd1bf272647c7824eb9cb055480962f0c382596a70",
    "02566d5ded7c7db1aa7ee4ef6f76989fb42527fcfdcddcd447d6793b7d869e46f7",
    "0294c817150f78607566e961b3c71df53a22022a80acbb982f83c0c8baac040adc",
    "0372cd46831f3b6afd4c044d160b7667e8ebf659d6cb51a825a3104df6ee0638c6",
    "0340df69f28d69eef60845da7d81ff60a9060d4da35c767f017b0dd4e20448fb44",
    "02ac1901b6fba2c1dbd47d894d2bd76c8ba1d296d65f6ab47f1c6b22afb53e73eb",
    "031aabbeb9b27258f98c2bf21f36677ae7bae09eb2d8c958ef41a20a6e88626d26",
    "0245ef34f5ee218005c9c21227133e8568a4f3f11aeab919c66ff7b816ae1ffeea",
    "02550cc87fa9061162b1dd395a16662529c9d8094c0feca17905a3244713d65fe8",
    "02481f02b7140acbf3fcdd9f72cf9a7d9484d8125e6df7c9451cfa55ba3b077265",
    "03f909ae15558c70cc751aff9b1f495199c325b13a9e5b934fd6299cd30ec50be8",
    "02c6018fcbd3e89f3cf9c7f48b3232ea3638eb8bf217e59ee290f5f0cfb2fb9259",
    "03b65694ccccda83cbb1e56b31308acd08e993114c33f66a456b627c2c1c68bed6",
  ]),
};

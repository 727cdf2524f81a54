/**
 * The Bridge constants of each built-in network, transcribed from rskj's `BridgeRegTestConstants`,
 * `BridgeTestNetConstants`, `BridgeMainNetConstants` and the federation, fee-per-kb, locking-cap and
 * whitelist constants they hold (docs/protocol/native-contracts.md §10.3). Regtest's genesis
 * federation is rskj 9.0.3's (a standard 2-of-3 multisig); a private network replaces its keys with
 * `bridge.genesisFederationPublicKeys` (`withGenesisFederationKeys`).
 */
import {hexToBytes, keccak256} from "@xchain/utils";
import type {BridgeAuthorizer, BridgeConstants, BtcNetworkParams} from "./types.ts";

/** The RSK address of an uncompressed public key (65 bytes, hex): keccak-256 of its 64 coordinate bytes, last 20. */
function rskAddressOfUncompressed(hex: string): Uint8Array {
  return keccak256(hexToBytes(hex).subarray(1)).slice(12);
}

function authorizer(required: BridgeAuthorizer["required"], uncompressedKeys: string[]): BridgeAuthorizer {
  return {required, addresses: uncompressedKeys.map(rskAddressOfUncompressed)};
}

const keys = (hexes: string[]): Uint8Array[] => hexes.map((hex) => hexToBytes(hex));

// Bitcoin's genesis headers differ only in time, bits and nonce.
const BTC_GENESIS_PREFIX = `01000000${"00".repeat(32)}3ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a`;

/** A Bitcoin network's parameters: its genesis header ends in `genesisTail` (time, bits, nonce). */
function btcNetwork(
  id: BtcNetworkParams["id"],
  genesisTail: string,
  genesisHash: string,
  [p2pkhVersion, p2shVersion]: [number, number],
): BtcNetworkParams {
  return {
    id,
    genesisHeader: hexToBytes(BTC_GENESIS_PREFIX + genesisTail),
    genesisHash: hexToBytes(genesisHash),
    p2pkhVersion,
    p2shVersion,
  };
}

const btcRegtest = btcNetwork(
  "regtest",
  "dae5494dffff7f2002000000",
  "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206",
  [111, 196],
);
const btcTestnet = btcNetwork(
  "testnet",
  "dae5494dffff001d1aa4ae18",
  "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943",
  [111, 196],
);
const btcMainnet = btcNetwork(
  "mainnet",
  "29ab5f49ffff001d1dac2b7c",
  "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f",
  [0, 5],
);

/** rskj's regtest genesis federation keys (`BridgeRegTestConstants.DEFAULT_FEDERATION_PUBLIC_KEYS`). */
export const REGTEST_GENESIS_FEDERATION_KEYS: readonly Uint8Array[] = keys([
  "0362634ab57dae9cb373a5d536e66a8c4f67468bbcfb063809bab643072d78a124",
  "03c5946b3fbae03a654237da863c9ed534e0878657175b132b8ca630f245df04db",
  "02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1",
]);

/** Regtest: the authorizers' keys are `keccak256(generator)` of public generators ("auth-a"…), so anyone can vote. */
export const regtestBridge: BridgeConstants = {
  btcParams: btcRegtest,
  genesisFederation: {
    publicKeys: REGTEST_GENESIS_FEDERATION_KEYS,
    creationTimeMs: 1_451_606_400_000n,
    creationBlockNumber: 1n,
  },
  federationChangeAuthorizer: authorizer("majority", [
    "04dde17c5fab31ffc53c91c2390136c325bb8690dc135b0840075dd7b86910d8ab9e88baad0c32f3eea8833446a6bc5ff1cd2efa99ecb17801bcb65fc16fc7d991",
    "04af886c67231476807e2a8eee9193878b9d94e30aa2ee469a9611d20e1e1c1b438e5044148f65e6e61bf03e9d72e597cb9cdea96d6fc044001b22099f9ec403e2",
    "045d4dedf9c69ab3ea139d0f0da0ad00160b7663d01ce7a6155cd44a3567d360112b0480ab6f31cac7345b5f64862205ea7ccf555fcf218f87fa0d801008fecb61",
    "04709f002ac4642b6a87ea0a9dc76eeaa93f71b3185985817ec1827eae34b46b5d869320efb5c5cbe2a5c13f96463fe0210710b53352a4314188daffe07bd54154",
    "04aff62315e9c18004392a5d9e39496ff5794b2d9f43ab4e8ade64740d7fdfe896969be859b43f26ef5aa4b5a0d11808277b4abfa1a07cc39f2839b89cc2bc6b4c",
  ]),
  feePerKbChangeAuthorizer: authorizer("majority", [
    "0430c7d0146029db553d60cf11e8d39df1c63979ee2e4cd1e4d4289a5d88cfcbf3a09b06b5cbc88b5bfeb4b87a94cefab81c8d44655e7e813fc3e18f51cfe7e8a0",
  ]),
  lockWhitelistChangeAuthorizer: authorizer("one", [
    "04641fb250d7ca7a1cb4f530588e978013038ec4294d084d248869dd54d98873e45c61d00ceeaeeb9e35eab19fa5fbd8f07cb8a5f0ddba26b4d4b18349c09199ad",
  ]),
  increaseLockingCapAuthorizer: authorizer("one", [
    "04450bbaab83ec48b3cb8fbb077c950ee079733041c039a8c4f1539e5181ca1a27589eeaf0fbf430e49d2909f14c767bf6909ad6845831f683416ee12b832e36ed",
  ]),
  btc2RskMinimumAcceptableConfirmations: 3,
  rsk2BtcMinimumAcceptableConfirmations: 3,
  minimumPeginTxValue: 500_000n,
  legacyMinimumPeginTxValue: 1_000_000n,
  minimumPegoutTxValue: 250_000n,
  legacyMinimumPegoutTxValue: 500_000n,
  genesisFeePerKb: 100_000n,
  maxFeePerKb: 5_000_000n,
  lockingCapInitialValue: 100_000_000_000n,
  lockingCapIncrementsMultiplier: 2n,
  numberOfBlocksBetweenPegouts: 50,
  minSecondsBetweenCallsReceiveHeader: 300,
  maxDepthBlockchainAccepted: 25,
  btcHeightWhenBlockIndexActivates: 10,
  maxDepthToSearchBlocksBelowIndexActivation: 5,
  minimumPegoutValuePercentageToReceiveAfterFee: 20,
  maxInputsPerPegoutTransaction: 10,
  federationActivationAge: 150,
};

// Testnet and mainnet share their fee-per-kb and locking-cap authorizers' keys.
const TESTNET_FEE_AND_CAP_KEYS = [
  "04701d1d27f8c2ae97912d96fb1f82f10c2395fd320e7a869049268c6b53d2060dfb2e22e3248955332d88cd2ae29a398f8f3858e48dd6d8ffbc37dfd6d1aa4934",
  "045ef89e4a5645dc68895dbc33b4c966c3a0a52bb837ecdd2ba448604c4f47266456d1191420e1d32bbe8741f8315fde4d1440908d400e5998dbed6549d499559b",
  "0455db9b3867c14e84a6f58bd2165f13bfdba0703cb84ea85788373a6a109f3717e40483aa1f8ef947f435ccdf10e530dd8b3025aa2d4a7014f12180ee3a301d27",
];

/** Testnet. rskj's creation time is 1,538,967,600 read as milliseconds (1970-01-18), kept as rskj has it. */
export const testnetBridge: BridgeConstants = {
  btcParams: btcTestnet,
  genesisFederation: {
    publicKeys: keys([
      "039a060badbeb24bee49eb2063f616c0f0f0765d4ca646b20a88ce828f259fcdb9",
      "02afc230c2d355b1a577682b07bc2646041b5d0177af0f98395a46018da699b6da",
      "0344a3c38cd59afcba3edcebe143e025574594b001700dec41e59409bdbd0f2a09",
      "034844a99cd7028aa319476674cc381df006628be71bc5593b8b5fdb32bb42ef85",
    ]),
    creationTimeMs: 1_538_967_600n,
    creationBlockNumber: 1n,
  },
  federationChangeAuthorizer: authorizer("majority", [
    "04d9052c2022f6f35da53f04f02856ff5e59f9836eec03daad0328d12c5c66140205da540498e46cd05bf63c1201382dd84c100f0d52a10654159965aea452c3f2",
    "04bf889f2035c8c441d7d1054b6a449742edd04d202f44a29348b4140b34e2a81ce66e388f40046636fd012bd7e3cecd9b951ffe28422334722d20a1cf6c7926fb",
    "047e707e4f67655c40c539363fb435d89574b8fe400971ba0290de9c2adbb2bd4e1e5b35a2188b9409ff2cc102292616efc113623483056bb8d8a02bf7695670ea",
  ]),
  feePerKbChangeAuthorizer: authorizer("majority", TESTNET_FEE_AND_CAP_KEYS),
  lockWhitelistChangeAuthorizer: authorizer("one", [
    "04bf7e3bca7f7c58326382ed9c2516a8773c21f1b806984bb1c5c33bd18046502d97b28c0ea5b16433fbb2b23f14e95b36209f304841e814017f1ede1ecbdcfce3",
  ]),
  increaseLockingCapAuthorizer: authorizer("one", TESTNET_FEE_AND_CAP_KEYS),
  btc2RskMinimumAcceptableConfirmations: 10,
  rsk2BtcMinimumAcceptableConfirmations: 10,
  minimumPeginTxValue: 500_000n,
  legacyMinimumPeginTxValue: 1_000_000n,
  minimumPegoutTxValue: 250_000n,
  legacyMinimumPegoutTxValue: 500_000n,
  genesisFeePerKb: 100_000n,
  maxFeePerKb: 5_000_000n,
  lockingCapInitialValue: 20_000_000_000n,
  lockingCapIncrementsMultiplier: 2n,
  numberOfBlocksBetweenPegouts: 360,
  minSecondsBetweenCallsReceiveHeader: 300,
  maxDepthBlockchainAccepted: 25,
  btcHeightWhenBlockIndexActivates: 2_039_594,
  maxDepthToSearchBlocksBelowIndexActivation: 4_320,
  minimumPegoutValuePercentageToReceiveAfterFee: 80,
  maxInputsPerPegoutTransaction: 50,
  federationActivationAge: 2_400,
};

const MAINNET_FEE_AND_CAP_KEYS = [
  "0448f51638348b034995b1fd934fe14c92afde783e69f120a46ee16eb6bdc2e4f6b5e37772094c68c0dea2b1be3d96ea9651a9eebda7304914c8047f4e3e251378",
  "0484c66f75548baf93e322574adac4e4579b6a53f8d11fab640e14c90118e6983ef24b0de349a3e88f72e81e771ae1c897cef446fd7f4da71778c532aee3b6c41b",
  "04bb6435dc1ea12da843ebe213893d136c1624acd681fff82551498ae00bf28e9323164b00daf925fa75177463b8254a2aae8a1713e4d851a84ea369c193e9ce51",
];

/** Mainnet. rskj's creation time is 1,514,948,400 read as milliseconds (1970-01-18), kept as rskj has it. */
export const mainnetBridge: BridgeConstants = {
  btcParams: btcMainnet,
  genesisFederation: {
    publicKeys: keys([
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
    creationTimeMs: 1_514_948_400n,
    creationBlockNumber: 1n,
  },
  federationChangeAuthorizer: authorizer("majority", [
    "04e593d4cde25137b13f19462bc4c02e97ba2ed5a3860813497abf9b4eeb9259e37e0384d12cfd2d9a7a0ba606b31ee34317a9d7f4a8591c6bcf5dfd5563248b2f",
    "045e7f2563e73d44d149c19cffca36e1898597dc759d76166b8104103c0d3f351a8a48e3a224544e9a649ad8ebcfdbd6c39744ddb85925f19c7e3fd48f07fc1c06",
    "0441945e4e272936106f6200b36162f3510e8083535c15e175ac82deaf828da955b85fd72b7534f2a34cedfb45fa63b728cc696a2bd3c5d39ec799ec2618e9aa9f",
  ]),
  feePerKbChangeAuthorizer: authorizer("majority", MAINNET_FEE_AND_CAP_KEYS),
  lockWhitelistChangeAuthorizer: authorizer("one", [
    "041a2449e9d63409c5a8ea3a21c4109b1a6634ee88fd57176d45ea46a59713d5e0b688313cf252128a3e49a0b2effb4b413e5a2525a6fa5894d059f815c9d9efa6",
  ]),
  increaseLockingCapAuthorizer: authorizer("one", MAINNET_FEE_AND_CAP_KEYS),
  btc2RskMinimumAcceptableConfirmations: 100,
  rsk2BtcMinimumAcceptableConfirmations: 4_000,
  minimumPeginTxValue: 500_000n,
  legacyMinimumPeginTxValue: 1_000_000n,
  minimumPegoutTxValue: 400_000n,
  legacyMinimumPegoutTxValue: 800_000n,
  genesisFeePerKb: 500_000n,
  maxFeePerKb: 5_000_000n,
  lockingCapInitialValue: 30_000_000_000n,
  lockingCapIncrementsMultiplier: 2n,
  numberOfBlocksBetweenPegouts: 360,
  minSecondsBetweenCallsReceiveHeader: 300,
  maxDepthBlockchainAccepted: 25,
  btcHeightWhenBlockIndexActivates: 696_022,
  maxDepthToSearchBlocksBelowIndexActivation: 4_320,
  minimumPegoutValuePercentageToReceiveAfterFee: 80,
  maxInputsPerPegoutTransaction: 50,
  federationActivationAge: 40_320,
};

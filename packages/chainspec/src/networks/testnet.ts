import {testnetBridge} from "../bridge/networks.ts";
import type {NetworkParams} from "../types.ts";
import {testnetRemasc} from "./remasc.ts";

/**
 * Rootstock testnet (chain id 31), transcribed from rskj `Constants.java` and `config/testnet.conf`.
 * RSKIP-144, -351 and -535 (header versions 1 and 2) are left inactive: xchain produces and
 * validates version-0 headers only (docs/protocol/README.md §2; rskj activates them at 7,139,600 and
 * 7,604,200).
 */
export const testnet: NetworkParams = {
  name: "testnet",
  chainId: 31,
  p2pNetworkId: 8100,
  p2pPort: 50505,
  rpcPort: 4444,
  durationLimitSeconds: 14,
  difficultyBoundDivisor: 50,
  difficultyBoundDivisorAfterRskip156: 400,
  minimumDifficulty: 131_072n,
  minimumDifficultyAfterRskip290: 550_000_000n,
  newBlockMaxSecondsInTheFuture: 540,
  maxBtcRskTimestampDiffSeconds: 300,
  maxBtcRskTimestampDiffSecondsAfterRskip297: 7200,
  uncleListLimit: 10,
  uncleGenerationLimit: 7,
  minGasLimit: 3_000_000n,
  gasLimitBoundDivisor: 1024n,
  maxExtraDataSize: 32,
  targetGasLimit: 6_800_000n,
  remascMaturity: 50,
  remasc: testnetRemasc,
  seedCowAccounts: false,
  activation: {
    RSKIP85: 0,
    RSKIP92: 0,
    RSKIP97: -1,
    RSKIP98: 0,
    RSKIP106: 0,
    RSKIP110: 0,
    RSKIP119: 0,
    RSKIP126: 0,
    RSKIP144: -1,
    RSKIP156: 863_000,
    RSKIP179: 2_060_500,
    RSKIP180: 2_060_500,
    RSKIP203: 4_927_100,
    RSKIP252: 4_015_800,
    RSKIP290: 2_581_800,
    RSKIP297: 3_103_000,
    RSKIP351: -1,
    RSKIP412: 4_927_100,
    RSKIP516: 6_835_700,
    RSKIP535: -1,
    RSKIP536: 7_139_600,
    RSKIPUMM: 863_000,
  },
  bridge: testnetBridge,
};

import {regtestBridge} from "../bridge/networks.ts";
import type {NetworkParams} from "../types.ts";
import {regtestRemasc} from "./remasc.ts";

/**
 * Rootstock regtest (chain id 33), transcribed from rskj `Constants.java` and `config/regtest.conf`.
 * As on testnet, RSKIP-144, -351 and -535 stay inactive (rskj: block 1) because xchain produces
 * version-0 headers (docs/protocol/README.md §2).
 */
export const regtest: NetworkParams = {
  name: "regtest",
  chainId: 33,
  p2pNetworkId: 7771,
  p2pPort: 50501,
  rpcPort: 4444,
  durationLimitSeconds: 10,
  difficultyBoundDivisor: 2048,
  // RSKIP-156 changes nothing on regtest.
  difficultyBoundDivisorAfterRskip156: 2048,
  minimumDifficulty: 1n,
  // 0 disables the timestamp rule entirely on regtest (docs/protocol/fees.md §1).
  newBlockMaxSecondsInTheFuture: 0,
  maxBtcRskTimestampDiffSeconds: 300,
  uncleListLimit: 10,
  uncleGenerationLimit: 7,
  minGasLimit: 3_000_000n,
  gasLimitBoundDivisor: 1024n,
  maxExtraDataSize: 32,
  targetGasLimit: 7_500_000n,
  remascMaturity: 10,
  remasc: regtestRemasc,
  seedCowAccounts: true,
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
    RSKIP156: 0,
    RSKIP179: 0,
    RSKIP180: 0,
    RSKIP203: 0,
    RSKIP252: 0,
    RSKIP290: -1,
    RSKIP297: -1,
    RSKIP351: -1,
    RSKIP412: 0,
    RSKIP516: 0,
    RSKIP535: -1,
    RSKIP536: 0,
    RSKIPUMM: 1,
  },
  bridge: regtestBridge,
};

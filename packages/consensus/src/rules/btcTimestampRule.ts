import type {Chainspec} from "@xchain/chainspec";
import {parseBitcoinHeader} from "@xchain/merged-mining";
import type {BlockHeader} from "@xchain/primitives";
import {HeaderError, HeaderErrorCode} from "../errors.ts";
import {requireMergedMining} from "./requireMergedMining.ts";

/**
 * From RSKIP-179 on, |Bitcoin header time − timestamp| must be below the network's limit (300 s; testnet 7200
 * s after RSKIP-297) (docs/protocol/merged-mining.md §1, rskj `BlockTimeStampValidationRule`). It belongs to
 * the timestamp rule, so newBlockMaxSecondsInTheFuture = 0 (regtest) disables it too (docs/protocol/fees.md
 * §1).
 */
export function btcTimestampRule(header: BlockHeader, chainspec: Chainspec): void {
  if (chainspec.params.newBlockMaxSecondsInTheFuture === 0) return;
  if (!chainspec.isActive("RSKIP179", header.number)) return;
  const bitcoinTime = parseBitcoinHeader(requireMergedMining(header).bitcoinHeader).time;
  const maxDiffSeconds = chainspec.maxBtcRskTimestampDiffSeconds(header.number);
  if (Math.abs(bitcoinTime - header.timestamp) >= maxDiffSeconds) {
    throw new HeaderError({
      code: HeaderErrorCode.BTC_TIMESTAMP_TOO_FAR,
      bitcoinTime,
      timestamp: header.timestamp,
      maxDiffSeconds,
    });
  }
}

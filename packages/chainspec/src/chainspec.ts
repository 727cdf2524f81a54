/**
 * A network's parameters plus the height-dependent questions the rest of the node asks of
 * them: which RSKIPs are active, and the constants that changed at an activation height.
 */
import type {HeaderEncodingRules} from "@xchain/primitives";
import {mainnet} from "./networks/mainnet.ts";
import {regtest} from "./networks/regtest.ts";
import {testnet} from "./networks/testnet.ts";
import type {NetworkName, NetworkParams, Rskip} from "./types.ts";

export class Chainspec implements HeaderEncodingRules {
  constructor(readonly params: NetworkParams) {}

  /** True when `rskip` is active at `height` (rskj: 0 <= activation height <= height). */
  isActive(rskip: Rskip, height: number): boolean {
    const activation = this.params.activation[rskip];
    return activation >= 0 && activation <= height;
  }

  /** Before RSKIP-92 the block hash also covers the merkle proof and coinbase. */
  isRskip92Active(height: number): boolean {
    return this.isActive("RSKIP92", height);
  }

  /** Whether a header at `height` carries the ummRoot field (RSKIP-UMM). */
  hasUmmRoot(height: number): boolean {
    return this.isActive("RSKIPUMM", height);
  }

  /** The difficulty bound divisor in force at `height` (RSKIP-156 raises it). */
  difficultyBoundDivisor(height: number): bigint {
    const p = this.params;
    return BigInt(this.isActive("RSKIP156", height) ? p.difficultyBoundDivisorAfterRskip156 : p.difficultyBoundDivisor);
  }

  /** The minimum difficulty in force at `height` (RSKIP-290 raises testnet's). */
  minimumDifficulty(height: number): bigint {
    const p = this.params;
    if (p.minimumDifficultyAfterRskip290 !== undefined && this.isActive("RSKIP290", height)) {
      return p.minimumDifficultyAfterRskip290;
    }
    return p.minimumDifficulty;
  }

  /** The exclusive bound on |Bitcoin header time - RSK timestamp| at `height` (RSKIP-179, RSKIP-297). */
  maxBtcRskTimestampDiffSeconds(height: number): number {
    const p = this.params;
    if (p.maxBtcRskTimestampDiffSecondsAfterRskip297 !== undefined && this.isActive("RSKIP297", height)) {
      return p.maxBtcRskTimestampDiffSecondsAfterRskip297;
    }
    return p.maxBtcRskTimestampDiffSeconds;
  }
}

const presets: Record<NetworkName, NetworkParams> = {mainnet, testnet, regtest};

/** The names of the built-in networks. */
export const networkNames = Object.keys(presets) as NetworkName[];

/** The chainspec of a built-in network. */
export function getChainspec(name: NetworkName): Chainspec {
  return new Chainspec(presets[name]);
}

/** True when `name` is a built-in network. */
export function isNetworkName(name: string): name is NetworkName {
  return Object.hasOwn(presets, name);
}

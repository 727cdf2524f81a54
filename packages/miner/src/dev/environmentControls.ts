/**
 * The block environment (docs/rpc.md §4.10 "Environment"): the coinbase, the minimum gas price and the gas
 * limit the miner's blocks carry, changed at run time from the next template on.
 */
import {randomBytes} from "node:crypto";
import type {MinerOptions} from "../options.ts";
import type {WorkManager} from "../template/workManager.ts";
import {notAllowed} from "./notAllowed.ts";
import type {EnvironmentControls, EnvironmentSettings} from "./types.ts";

/** What the environment controls act on. */
export interface EnvironmentControlsDeps {
  /** The miner's own options, changed here at run time. */
  options: Pick<MinerOptions, "coinbase" | "minGasPriceInWei" | "targetGasLimit" | "forceTargetGasLimit">;
  work: Pick<WorkManager, "invalidate">;
  /** The network's least gas limit (docs/protocol/fees.md §1.4). */
  minGasLimit: bigint;
}

/** anvil_setCoinbase, anvil_setMinGasPrice, evm_setBlockGasLimit. */
export class MinerEnvironmentControls implements EnvironmentControls {
  private readonly instanceId = new Uint8Array(randomBytes(32));

  constructor(private readonly deps: EnvironmentControlsDeps) {}

  setCoinbase(address: Uint8Array): void {
    this.deps.options.coinbase = address;
    this.deps.work.invalidate();
  }

  setMinGasPrice(wei: bigint): void {
    if (wei < 0n) throw notAllowed(`cannot set the minimum gas price to ${wei}`);
    this.deps.options.minGasPriceInWei = wei;
    this.deps.work.invalidate();
  }

  setBlockGasLimit(gasLimit: bigint): void {
    const {minGasLimit, options} = this.deps;
    if (gasLimit < minGasLimit) {
      throw notAllowed(
        `cannot set the block gas limit to ${gasLimit}: this network's blocks carry at least ${minGasLimit}`,
      );
    }
    // The blocks step toward the target inside the parent's band, as miner.targetGasLimit does.
    options.targetGasLimit = gasLimit;
    options.forceTargetGasLimit = true;
    this.deps.work.invalidate();
  }

  settings(): EnvironmentSettings {
    const {coinbase, minGasPriceInWei, targetGasLimit} = this.deps.options;
    return {coinbase, minGasPriceInWei, targetGasLimit, instanceId: this.instanceId};
  }
}

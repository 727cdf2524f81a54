/** The refusal of a development control: MinerError NOT_ALLOWED (-32602 on the wire) with its reason. */
import {MinerError} from "../errors.ts";
import {MinerErrorCode} from "../types.ts";

/** A MinerError NOT_ALLOWED saying `reason`. */
export function notAllowed(reason: string): MinerError {
  return new MinerError({code: MinerErrorCode.NOT_ALLOWED, reason});
}

/** Throws NOT_ALLOWED unless the miner's `devControls` option is on: the one check of every group of controls. */
export function requireDevControls(enabled: boolean): void {
  if (!enabled) {
    throw notAllowed(
      "the development controls (evm_*, anvil_*, hardhat_*) are disabled on this network (miner.devControls)",
    );
  }
}

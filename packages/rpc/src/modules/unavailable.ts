/** Guards for the optional dependencies: a missing one makes its methods -32601 "not available". */
import type {ImpersonationControls, MinerApi} from "@xchain/miner";
import {MethodUnavailableError} from "../jsonrpc/errors.ts";

/** The miner, or MethodUnavailableError on a node that does not mine. */
export function requireMiner(miner: MinerApi | undefined): MinerApi {
  if (!miner) throw new MethodUnavailableError("this node has no miner");
  return miner;
}

/** The impersonated accounts, or MethodUnavailableError on a node built without them. */
export function requireImpersonation(impersonation: ImpersonationControls | undefined): ImpersonationControls {
  if (!impersonation) throw new MethodUnavailableError("this node has no impersonation controls");
  return impersonation;
}

/** Guards for the optional dependencies: a missing one makes its methods -32601 "not available". */
import type {MinerApi} from "@xchain/miner";
import {MethodUnavailableError} from "../jsonrpc/errors.ts";

/** The miner, or MethodUnavailableError on a node that does not mine. */
export function requireMiner(miner: MinerApi | undefined): MinerApi {
  if (!miner) throw new MethodUnavailableError("this node has no miner");
  return miner;
}

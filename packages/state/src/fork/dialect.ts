/**
 * Which kind of node an upstream is, from its `web3_clientVersion` (docs/forking.md §1.1), and the error
 * answers that say a method is not served. The dialect only decides what is worth asking: rskj serves no
 * `eth_getProof` (its state is a Unitrie, docs/protocol/proofs.md), so it is not probed for one; the other
 * differences (the EIP-1898 object form, batches) are detected from the answers and remembered.
 */
import {ForkError, ForkErrorCode} from "./errors.ts";

export type UpstreamDialect = "xchain" | "rskj" | "ethereum" | "unknown";

/** The dialect of a `web3_clientVersion` answer ("RskJ/6.4.0/…", "xchain/v0.1.0/…", "Geth/…", "anvil/v1.0.0"…). */
export function dialectOf(clientVersion: string): UpstreamDialect {
  const name = clientVersion.split("/")[0]?.toLowerCase() ?? "";
  if (name === "rskj") return "rskj";
  if (name === "xchain") return "xchain";
  if (["geth", "anvil", "hardhatnetwork", "erigon", "reth", "nethermind", "besu"].includes(name)) return "ethereum";
  return "unknown";
}

/** An upstream's error answer saying the method does not exist or is not served (-32601 and its wordings). */
export function isMethodMissing(e: unknown): boolean {
  if (!(e instanceof ForkError) || e.type.code !== ForkErrorCode.UPSTREAM_ERROR_ANSWER) return false;
  return (
    e.type.rpcCode === -32601 ||
    /method not found|does not exist|not available|not supported|unsupported|not implemented/i.test(e.type.rpcMessage)
  );
}

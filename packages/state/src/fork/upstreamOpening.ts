/**
 * How a `ForkSource` meets its upstream (docs/forking.md §1.1): its chain id and client version, the fork
 * block resolved (from the cache, by hash, by number, or the head minus the safe depth), and the errors
 * of opening: another chain, a read the offline cache cannot answer.
 */
import {equalBytes, toData, toQuantity} from "@xchain/utils";
import type {ForkSourceOptions} from "../options.ts";
import {type ForkHeader, forkHeader, quantity} from "./answers.ts";
import {ForkError, ForkErrorCode} from "./errors.ts";
import type {ForkCache, UpstreamRecord} from "./forkCache.ts";
import type {UpstreamClient} from "./upstreamClient.ts";

/** An upstream of another chain than the fork's (a re-fork, a new upstream URL). */
export function chainMismatch(url: string, chainId: bigint, forkChainId: bigint): ForkError {
  return new ForkError(
    {code: ForkErrorCode.UPSTREAM_MISMATCH, url, chainId: chainId.toString(), forkChainId: forkChainId.toString()},
    `upstream ${url} is chain id ${chainId}, this fork's upstream chain id ${forkChainId}: a fork keeps its chain (start another node to fork that one)`,
  );
}

/** The chain id and client version of an upstream the cache does not know. */
export async function learnUpstream(client: UpstreamClient, opts: ForkSourceOptions): Promise<UpstreamRecord> {
  if (opts.offline) throw offlineMiss("the upstream's chain id", undefined, "(unknown)");
  const key = "the upstream's chain id";
  const [chainId, clientVersion] = await Promise.all([
    client.call("eth_chainId", [], key),
    client.call("web3_clientVersion", [], "the upstream's client version").catch(() => "unknown"),
  ]);
  let id: bigint;
  try {
    id = quantity(chainId, "the chain id");
  } catch (e) {
    const reason = (e as Error).message;
    throw new ForkError(
      {code: ForkErrorCode.UPSTREAM_BAD_ANSWER, url: client.displayUrl, key, reason},
      `upstream ${client.displayUrl}: ${reason}`,
    );
  }
  return {
    chainId: id,
    clientVersion: String(clientVersion),
    proofs: undefined,
    pinByNumber: false,
    lastForkHash: undefined,
  };
}

/** The fork block's header from the cache, or from the upstream (by hash, by number, or its head minus the safe depth). */
export async function resolveForkBlock(
  opts: ForkSourceOptions,
  client: UpstreamClient,
  cache: ForkCache,
  record: UpstreamRecord,
  /** The named block as a first open asked it early (`firstContact`): used instead of asking again. */
  early?: Promise<Settled>,
): Promise<ForkHeader> {
  const {chainId} = record;
  const chosen = opts.block ?? (opts.offline ? record.lastForkHash : undefined);
  const hash = typeof chosen === "number" ? await cache.forkHashAt(chainId, chosen) : chosen;
  if (hash) {
    const json = await cache.scope(chainId, hash).header();
    if (json) return forkHeader(json);
  }
  const name = blockName(chosen);
  if (opts.offline)
    throw offlineMiss(
      name,
      chainId,
      chosen === undefined ? "(none)" : String(typeof chosen === "number" ? chosen : toData(chosen)),
    );
  let block: unknown;
  const answer = await early;
  if (answer !== undefined) {
    if ("error" in answer) throw answer.error;
    block = answer.result;
  } else if (chosen instanceof Uint8Array) {
    block = await client.call("eth_getBlockByHash", [toData(chosen), false], name);
  } else {
    const number =
      chosen ??
      Math.max(0, Number(quantity(await client.call("eth_blockNumber", [], "the head"), "the head")) - opts.safeDepth);
    block = await client.call("eth_getBlockByNumber", [toQuantity(number), false], name);
  }
  if (block === null) {
    throw new ForkError(
      {code: ForkErrorCode.FORK_BLOCK_NOT_FOUND, url: client.displayUrl, block: name},
      `upstream ${client.displayUrl} has no ${name}`,
    );
  }
  let header: ForkHeader;
  try {
    header = forkHeader(block);
  } catch (e) {
    const reason = (e as Error).message;
    throw new ForkError(
      {code: ForkErrorCode.UPSTREAM_BAD_ANSWER, url: client.displayUrl, key: name, reason},
      `upstream ${client.displayUrl}: reading ${name}: ${reason}`,
    );
  }
  if (chosen instanceof Uint8Array && !equalBytes(header.hash, chosen)) {
    throw new ForkError(
      {
        code: ForkErrorCode.UPSTREAM_BAD_ANSWER,
        url: client.displayUrl,
        key: name,
        reason: `it answered block ${toData(header.hash)}`,
      },
      `upstream ${client.displayUrl}: asked for ${name}, it answered block ${toData(header.hash)}`,
    );
  }
  cache.scope(chainId, header.hash).putHeader(header.json);
  cache.putForkHashAt(chainId, header.number, header.hash);
  return header;
}

/** The key naming the fork block `chosen` in errors. */
export function blockName(chosen: number | Uint8Array | undefined): string {
  if (chosen === undefined) return "the fork block";
  return typeof chosen === "number" ? `block ${chosen}` : `block ${toData(chosen)}`;
}

/** A call's answer, kept whether it succeeded or failed. */
export type Settled = {result: unknown} | {error: unknown};

export function offlineMiss(key: string, chainId: bigint | undefined, forkBlock: string): ForkError {
  const chain = chainId === undefined ? "(unknown)" : chainId.toString();
  return new ForkError(
    {code: ForkErrorCode.OFFLINE_MISS, key, chainId: chain, forkBlock},
    `fork.offline: the cache holds no ${key} (chain ${chain}, fork block ${forkBlock}); run once online to fetch it`,
  );
}

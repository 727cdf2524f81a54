/**
 * The requests of a fork's first open against an upstream the cache does not know yet, in one batch
 * (docs/forking.md §1.1): its chain id and client version, the fork block when it is named (by number or
 * hash) and, unless `verify` is off, the `eth_getProof` probe pinned at that block. Against a remote upstream
 * this is one round trip instead of three. The block's and the probe's answers are kept settled (a result or
 * an error) for the open to use where it would have asked: an error is the open's to throw, or to ask again
 * as any read would.
 */
import {toData, toQuantity} from "@xchain/utils";
import type {ForkSourceOptions} from "../options.ts";
import type {UpstreamRecord} from "./forkCache.ts";
import type {UpstreamClient} from "./upstreamClient.ts";
import {blockName, learnUpstream, type Settled} from "./upstreamOpening.ts";

/** What the first open asks at once. */
export interface FirstContact {
  record: Promise<UpstreamRecord>;
  /** Undefined when the fork block is not named (it is found from the head). */
  block: Promise<Settled> | undefined;
  /** Undefined with `verify` off or the fork block not named. */
  probe: Promise<Settled> | undefined;
}

export const ZERO_ADDRESS = new Uint8Array(20);
/** The key the proofs probe is read under. */
export const PROBE_KEY = "the eth_getProof probe";

/** Asks all at once: the calls go in one batch, being made in the same turn (offline: the record's miss). */
export function firstContact(client: UpstreamClient, opts: ForkSourceOptions): FirstContact {
  const record = learnUpstream(client, opts);
  const chosen = opts.block;
  if (chosen === undefined || opts.offline) return {record, block: undefined, probe: undefined};
  const block =
    chosen instanceof Uint8Array
      ? client.call("eth_getBlockByHash", [toData(chosen), false], blockName(chosen))
      : client.call("eth_getBlockByNumber", [toQuantity(chosen), false], blockName(chosen));
  const pin = chosen instanceof Uint8Array ? {blockHash: toData(chosen)} : toQuantity(chosen);
  const probe =
    opts.verify === "off" ? undefined : client.call("eth_getProof", [toData(ZERO_ADDRESS), [], pin], PROBE_KEY);
  return {record, block: settled(block), probe: probe && settled(probe)};
}

function settled(call: Promise<unknown>): Promise<Settled> {
  return call.then(
    (result) => ({result}),
    (error: unknown) => ({error}),
  );
}

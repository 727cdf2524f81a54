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
import {quantity} from "./answers.ts";
import {ForkError, ForkErrorCode} from "./errors.ts";
import type {UpstreamRecord} from "./forkCache.ts";
import type {UpstreamClient} from "./upstreamClient.ts";

/** A call's answer, kept whether it succeeded or failed. */
export type Settled = {result: unknown} | {error: unknown};

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

/** The key naming the fork block `chosen` in errors. */
export function blockName(chosen: number | Uint8Array | undefined): string {
  if (chosen === undefined) return "the fork block";
  return typeof chosen === "number" ? `block ${chosen}` : `block ${toData(chosen)}`;
}

/** Asks all at once (never offline): the calls go in one batch, being made in the same turn. */
export function firstContact(client: UpstreamClient, opts: ForkSourceOptions): FirstContact {
  const record = learnUpstream(client);
  const chosen = opts.block;
  if (chosen === undefined) return {record, block: undefined, probe: undefined};
  const block =
    chosen instanceof Uint8Array
      ? client.call("eth_getBlockByHash", [toData(chosen), false], blockName(chosen))
      : client.call("eth_getBlockByNumber", [toQuantity(chosen), false], blockName(chosen));
  const pin = chosen instanceof Uint8Array ? {blockHash: toData(chosen)} : toQuantity(chosen);
  const probe =
    opts.verify === "off" ? undefined : client.call("eth_getProof", [toData(ZERO_ADDRESS), [], pin], PROBE_KEY);
  return {record, block: settled(block), probe: probe && settled(probe)};
}

/** The result of `answer`, or its error thrown. */
export async function resultOf(answer: Promise<Settled>): Promise<unknown> {
  const settledAnswer = await answer;
  if ("error" in settledAnswer) throw settledAnswer.error;
  return settledAnswer.result;
}

function settled(call: Promise<unknown>): Promise<Settled> {
  return call.then(
    (result) => ({result}),
    (error: unknown) => ({error}),
  );
}

/** The chain id and client version of an upstream the cache does not know. */
async function learnUpstream(client: UpstreamClient): Promise<UpstreamRecord> {
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

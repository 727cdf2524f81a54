/**
 * External solutions (`mnr_submitBitcoinBlock*`, `eth_submitWork`): rate limit, the cached work
 * they name, then seal and import (docs/protocol/mining-rpc.md §3).
 */
import type {Chainspec} from "@xchain/chainspec";
import type {MergedMiningFields} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import type {MinerChain} from "../deps.ts";
import {MinerError} from "../errors.ts";
import type {Work, WorkCache} from "../template/workCache.ts";
import {MinerErrorCode, type SubmitBlockResult} from "../types.ts";
import type {ParsedSubmission} from "./parseSubmission.ts";
import type {SubmissionRateLimiter} from "./rateLimiter.ts";
import {sealAndImport} from "./sealAndImport.ts";

/** What a submission goes through. */
export interface SubmitterDeps {
  chain: Pick<MinerChain, "importBlock">;
  chainspec: Chainspec;
  cache: WorkCache;
  rateLimiter: SubmissionRateLimiter;
}

/** Imports the blocks miners solve. */
export class Submitter {
  constructor(private readonly deps: SubmitterDeps) {}

  /** A `mnr_*` solution: WORK_NOT_FOUND unless it names cached work. */
  async submit(parsed: ParsedSubmission): Promise<SubmitBlockResult> {
    this.deps.rateLimiter.check();
    const hash = parsed.hashForMergedMining;
    const work = hash && this.deps.cache.get(hash);
    if (!work) throw new MinerError({code: MinerErrorCode.WORK_NOT_FOUND, hash: hash && bytesToHex(hash)});
    return this.seal(work, parsed.fields);
  }

  /** A solution of work already found (eth_submitWork), subject to the same rate limit. */
  async submitWork(work: Work, fields: MergedMiningFields): Promise<SubmitBlockResult> {
    this.deps.rateLimiter.check();
    return this.seal(work, fields);
  }

  private seal(work: Work, fields: MergedMiningFields): Promise<SubmitBlockResult> {
    this.deps.rateLimiter.record();
    return sealAndImport(this.deps.chain, this.deps.chainspec, work.template, fields);
  }
}

/**
 * The miner: block templates on the head, the work cache, `mnr_*` and `eth_*` work
 * and submissions, the built-in CPU miner and the dev controls (`evm_*`, and `chainControls`). It rebuilds the template on a
 * new best block, on new pending transactions (debounced; under instant mining the built-in miner
 * takes them at once instead, `MinerOptions.instant`) and every `rebuildIntervalMs`; eagerly
 * while the built-in miner runs (not under instant mining: it builds what it mines) or a miner asked
 * for work recently, otherwise on the next request.
 * `events` tells of work served, external solutions and blocks mined (`MinerEvents`).
 */
import {EventEmitter} from "node:events";
import type {NewHeadEvent} from "@xchain/chain";
import {bitcoinPowValue, mergedMiningFieldsFromBlock, serializeBitcoinBlock} from "@xchain/merged-mining";
import type {Transaction} from "@xchain/primitives";
import {bigIntToFixedBytes, bytesToHex, equalBytes, type Logger, noopLogger, RepeatedErrorLog} from "@xchain/utils";
import {AutoMiner} from "./autoMiner.ts";
import {MinerClock} from "./clock.ts";
import type {MinerModules} from "./deps.ts";
import {DevChainControls} from "./dev/chainControls.ts";
import {MinerEnvironmentControls} from "./dev/environmentControls.ts";
import {MinerMiningControls} from "./dev/miningControls.ts";
import {requireDevControls} from "./dev/notAllowed.ts";
import {DevStateControls} from "./dev/stateControls.ts";
import {ClockTimeControls} from "./dev/timeControls.ts";
import type {MinerDevControls} from "./dev/types.ts";
import {EvmControls} from "./devControls.ts";
import {MinerError, requireMiningServer} from "./errors.ts";
import {bitcoinNonceFromEthNonce, buildEthHeaderWork, ethWorkPackage, headerWithNonce} from "./ethWork.ts";
import type {MinerEvents, SubmitMethod} from "./events.ts";
import {HashrateMeter} from "./hashrate.ts";
import {InclusionWaiters} from "./instant/inclusionWaiters.ts";
import type {MinerOptions} from "./options.ts";
import {PendingBlockBuilder} from "./pending/pendingBlock.ts";
import {
  parseBitcoinBlockSubmission,
  parsePartialMerkleSubmission,
  parseTransactionsSubmission,
} from "./submit/parseSubmission.ts";
import {SubmissionRateLimiter} from "./submit/rateLimiter.ts";
import {sealAndImport} from "./submit/sealAndImport.ts";
import {Submitter} from "./submit/submitter.ts";
import {buildTemplate, settleLeftOut} from "./template/blockTemplate.ts";
import {UncleFinder} from "./template/uncles.ts";
import {WorkCache} from "./template/workCache.ts";
import {WorkManager} from "./template/workManager.ts";
import {
  type MergedMiningWork,
  type MinerApi,
  MinerErrorCode,
  type PendingBlock,
  type PendingBlockSource,
  type SubmitBlockResult,
} from "./types.ts";

const TARGET_BYTES = 32;
// How long eth_sendRawTransaction may wait for its block under instant mining: a few blocks of a burst.
const INCLUSION_WAIT_MS = 2_000;
// Answers held at once under instant mining: a few concurrent senders; more is a burst, answered at once.
const INCLUSION_MAX_HELD = 4;

/** The miner of one node; `close` stops it. */
export class Miner implements MinerApi, PendingBlockSource {
  /** Work served, external solutions and their outcome, blocks mined (listeners must not throw). */
  readonly events = new EventEmitter<MinerEvents>();
  private readonly work: WorkManager;
  private readonly pending: PendingBlockBuilder;
  private readonly submitter: Submitter;
  private readonly autoMiner: AutoMiner;
  private readonly dev: EvmControls;
  private readonly devGroups: MinerDevControls;
  private readonly clock: MinerClock;
  /** The options as configured, then as the dev controls change them (coinbase, gas, automine, interval). */
  private readonly options: MinerOptions;
  private readonly meter: HashrateMeter;
  private readonly inclusion = new InclusionWaiters(INCLUSION_WAIT_MS, INCLUSION_MAX_HELD);
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly rebuildFailures: RepeatedErrorLog;
  private readonly notSyncedReason: (() => string | undefined) | undefined;
  private readonly unsubscribe: () => void;
  private readonly rebuildTimer: NodeJS.Timeout;
  private pendingTimer: NodeJS.Timeout | undefined;
  private lastWorkRequestAt = Number.NEGATIVE_INFINITY;

  /** Subscribes to the chain and the pool, and starts the built-in miner when `options.enabled`. */
  constructor(configured: MinerOptions, modules: MinerModules) {
    const {chain, chainspec} = modules;
    // The built-in miner mines through the work server (node options refuse the pair at start-up).
    if (configured.enabled) requireMiningServer(configured);
    const options = {...configured};
    this.options = options;
    this.now = modules.now ?? Date.now;
    this.logger = modules.logger ?? noopLogger;
    this.rebuildFailures = new RepeatedErrorLog(this.logger, "block template rebuild failed");
    this.notSyncedReason = options.allowSolo ? undefined : modules.notSyncedReason;
    if (equalBytes(options.coinbase, new Uint8Array(20))) {
      this.logger.warn("miner.coinbase is the zero address: the fees of mined blocks are lost; set miner.coinbase");
    }
    const clock = new MinerClock(this.now);
    this.clock = clock;
    const sources = {...modules, clock, uncles: new UncleFinder(chain, chainspec), options};
    const leftOut = new RepeatedErrorLog(this.logger, "a pending transaction was left out of the block");
    this.work = new WorkManager(
      async (head) =>
        settleLeftOut(await buildTemplate(sources, head), {log: leftOut, txpool: modules.txpool, logger: this.logger}),
      () => chain.head(),
      new WorkCache(options.workCacheSize),
    );
    this.pending = new PendingBlockBuilder({
      ...sources,
      head: () => chain.head(),
      poolRevision: () => modules.txpool.revision(),
      state: modules.pendingState,
    });
    this.meter = new HashrateMeter(options.hashrateWindowMs, this.now);
    const rateLimiter = new SubmissionRateLimiter(options.submissionRateLimitMs, this.now);
    this.submitter = new Submitter({chain, chainspec, cache: this.work.cache, rateLimiter});
    this.autoMiner = new AutoMiner({
      work: this.work,
      txpool: modules.txpool,
      seal: async (template, fields) => {
        const result = await sealAndImport(chain, chainspec, template, fields);
        this.events.emit("blockMined", {result});
        return result;
      },
      meter: this.meter,
      options,
      logger: this.logger,
      onIdle: () => this.inclusion.releaseAll(),
      stampNow: () => clock.timestampAfter(chain.head().header.timestamp),
    });
    this.dev = new EvmControls({
      chain,
      clock,
      work: this.work,
      autoMiner: this.autoMiner,
      enabled: options.devControls,
      maxSecondsInFuture: chainspec.params.newBlockMaxSecondsInTheFuture,
    });
    this.devGroups = this.buildDevGroups(modules);

    chain.events.on("newHead", this.onNewHead);
    chain.events.on("stateEdited", this.onStateEdited);
    const stopPending = modules.txpool.onPending(this.onPending);
    this.unsubscribe = () => {
      chain.events.off("newHead", this.onNewHead);
      chain.events.off("stateEdited", this.onStateEdited);
      stopPending();
    };
    this.rebuildTimer = setInterval(() => {
      this.work.markOutdated();
      this.refreshInBackground();
    }, options.rebuildIntervalMs);
    if (options.enabled) this.autoMiner.start();
  }

  /** The blocks' coinbase (eth_coinbase), as configured or set by anvil_setCoinbase. */
  get coinbase(): Uint8Array {
    return this.options.coinbase;
  }

  devControls(): MinerDevControls {
    requireDevControls(this.options.devControls);
    return this.devGroups;
  }

  private buildDevGroups({chain, chainspec, txpool, stateDumps, probeState}: MinerModules): MinerDevControls {
    const head = () => chain.head();
    const time = new ClockTimeControls({
      head,
      clock: this.clock,
      work: this.work,
      now: this.now,
      maxSecondsInFuture: chainspec.params.newBlockMaxSecondsInTheFuture,
    });
    const options = this.options;
    const mining = new MinerMiningControls({
      head,
      clock: this.clock,
      autoMiner: this.autoMiner,
      options,
      txpool,
      time,
      work: this.work,
    });
    const environment = new MinerEnvironmentControls({
      options,
      work: this.work,
      minGasLimit: chainspec.params.minGasLimit,
    });
    const exclusive = <T>(task: () => Promise<T>) => this.autoMiner.exclusive(task);
    const state = new DevStateControls({chain, chainspec, probeState, exclusive});
    const chainControls = new DevChainControls({
      chain,
      txpool,
      clock: this.clock,
      work: this.work,
      states: stateDumps,
      dumpMaxBytes: options.dumpStateMaxBytes,
      exclusive,
    });
    return {state, chain: chainControls, mining, time, environment};
  }

  async getWork(): Promise<MergedMiningWork> {
    requireMiningServer(this.options);
    this.refuseWorkUnlessSynced();
    this.lastWorkRequestAt = this.now();
    const work = await this.work.current();
    const {header, hashForMergedMining, target} = work.template;
    const notify = work.notify;
    work.notify = false;
    this.events.emit("workServed", {method: "mnr_getWork"});
    return {
      blockHashForMergedMining: hashForMergedMining,
      target: bigIntToFixedBytes(target, TARGET_BYTES),
      feesPaidToMiner: header.paidFees,
      notify,
      parentBlockHash: header.parentHash,
      height: header.number,
    };
  }

  submitBitcoinBlock(bitcoinBlock: Uint8Array): Promise<SubmitBlockResult> {
    return this.submitted("mnr_submitBitcoinBlock", () =>
      this.submitter.submit(parseBitcoinBlockSubmission(bitcoinBlock)),
    );
  }

  submitBitcoinBlockTransactions(
    header: Uint8Array,
    coinbase: Uint8Array,
    txids: Uint8Array[],
  ): Promise<SubmitBlockResult> {
    return this.submitted("mnr_submitBitcoinBlockTransactions", () =>
      this.submitter.submit(parseTransactionsSubmission(header, coinbase, txids)),
    );
  }

  submitBitcoinBlockPartialMerkle(
    header: Uint8Array,
    coinbase: Uint8Array,
    branch: Uint8Array[],
    txCount: number,
  ): Promise<SubmitBlockResult> {
    return this.submitted("mnr_submitBitcoinBlockPartialMerkle", () =>
      this.submitter.submit(parsePartialMerkleSubmission(header, coinbase, branch, txCount)),
    );
  }

  /** Runs a solution's import and tells the `submission` listeners what became of it; rethrows its error. */
  private async submitted(method: SubmitMethod, submit: () => Promise<SubmitBlockResult>): Promise<SubmitBlockResult> {
    let result: SubmitBlockResult;
    try {
      requireMiningServer(this.options);
      result = await submit();
    } catch (e) {
      const outcome =
        e instanceof MinerError
          ? {kind: "refused" as const, reason: e.message, error: e}
          : {kind: "failed" as const, error: e};
      this.events.emit("submission", {method, outcome});
      throw e;
    }
    this.events.emit("submission", {method, outcome: {kind: "imported", result}});
    return result;
  }

  async getEthWork(): Promise<[Uint8Array, Uint8Array, Uint8Array]> {
    requireMiningServer(this.options);
    this.refuseWorkUnlessSynced();
    this.lastWorkRequestAt = this.now();
    const work = await this.work.current();
    work.ethWork ??= buildEthHeaderWork(work.template);
    const served = ethWorkPackage(work.ethWork, work.template.target);
    this.events.emit("workServed", {method: "eth_getWork"});
    return served;
  }

  /**
   * `mixDigest` is not used: the work named by `powHash` (its midstate) and the nonce define the
   * header. False for unknown work, a nonce above 2^32 − 1 or the target, or a block the chain
   * rejects; the answer is only a boolean, so each refusal is logged with its reason.
   */
  async submitEthWork(nonce: Uint8Array, powHash: Uint8Array, _mixDigest: Uint8Array): Promise<boolean> {
    // Not a `false`: nothing is wrong with the solution, this node takes none.
    requireMiningServer(this.options);
    const logRefusal = (reason: string) => {
      this.logger.info(
        {method: "eth_submitWork", powHash: bytesToHex(powHash), reason},
        `eth_submitWork refused: ${reason}`,
      );
      return false;
    };
    // Refused by the checks below, before any import: `submitted` tells of the others.
    const refuse = (reason: string) => {
      this.events.emit("submission", {method: "eth_submitWork", outcome: {kind: "refused", reason}});
      return logRefusal(reason);
    };
    const work = this.work.cache.find((w) => w.ethWork !== undefined && equalBytes(w.ethWork.midstate, powHash));
    if (!work?.ethWork)
      return refuse(`no cached eth_getWork work has the pow hash 0x${bytesToHex(powHash)} (stale or unknown)`);
    const bitcoinNonce = bitcoinNonceFromEthNonce(nonce);
    if (bitcoinNonce === undefined) return refuse(`the nonce 0x${bytesToHex(nonce)} is above 2^32 - 1`);
    const header = headerWithNonce(work.ethWork.header, bitcoinNonce);
    if (bitcoinPowValue(header) > work.template.target) return refuse("the solution is above the target");
    const fields = mergedMiningFieldsFromBlock(serializeBitcoinBlock(header, [work.ethWork.coinbase]));
    try {
      await this.submitted("eth_submitWork", () => this.submitter.submitWork(work, fields));
      return true;
    } catch (e) {
      if (e instanceof MinerError) return logRefusal(e.message);
      throw e;
    }
  }

  /** Throws `MinerError(NOT_SYNCED)` while the node is not synced and `allowSolo` is off. */
  private refuseWorkUnlessSynced(): void {
    const reason = this.notSyncedReason?.();
    if (reason !== undefined) throw new MinerError({code: MinerErrorCode.NOT_SYNCED, reason});
  }

  pendingBlock(): Promise<PendingBlock> {
    return this.pending.current();
  }

  whenMined(hash: Uint8Array): Promise<void> {
    return this.inclusion.wait(hash);
  }

  isMining(): boolean {
    return this.autoMiner.isRunning;
  }

  hashrate(): bigint {
    return this.meter.total();
  }

  submitHashrate(hashesPerSecond: bigint, clientId: Uint8Array): void {
    this.meter.report(hashesPerSecond, clientId);
  }

  mineBlock(): Promise<SubmitBlockResult> {
    return this.dev.mineBlock();
  }

  increaseTime(seconds: number): number {
    return this.dev.increaseTime(seconds);
  }

  startMining(): void {
    this.dev.startMining();
  }

  stopMining(): void {
    this.dev.stopMining();
  }

  /** Unsubscribes, stops the timers and the built-in miner, and waits for the block and template in flight. */
  async close(): Promise<void> {
    this.unsubscribe();
    clearInterval(this.rebuildTimer);
    clearTimeout(this.pendingTimer);
    await this.autoMiner.close();
    this.inclusion.releaseAll();
    await this.work.settled();
  }

  private readonly onNewHead = (event: NewHeadEvent): void => {
    this.clock.headMoved(event.head.header.timestamp);
    this.inclusion.included(event.added);
    this.work.invalidate();
    this.refreshInBackground();
    this.autoMiner.pendingChanged();
  };

  /**
   * The head's state was edited (dev controls): templates and the pending block built on the old state
   * are void, and so is work handed out (its block would not import on the edited state).
   */
  private readonly onStateEdited = (): void => {
    this.work.cache.clear();
    this.work.invalidate();
    this.pending.invalidate();
    this.refreshInBackground();
    this.autoMiner.pendingChanged();
  };

  private readonly onPending = (tx: Transaction): void => {
    this.work.markOutdated();
    if (this.options.instant && this.options.autoMine && this.autoMiner.isRunning) {
      // The miner builds a fresh template for its block anyway: no debounced rebuild besides.
      this.inclusion.expect(tx);
      this.autoMiner.pendingChanged();
      return;
    }
    this.pendingTimer ??= setTimeout(() => {
      this.pendingTimer = undefined;
      this.refreshInBackground();
      this.autoMiner.pendingChanged();
    }, this.options.pendingDebounceMs);
  };

  /**
   * Rebuilds now if someone will use the template soon: the built-in miner, or a miner that polled recently.
   * Under instant mining the built-in miner builds the template it mines when transactions arrive (and
   * evm_mine and work requests build on demand): one built ahead on every new head would be rebuilt.
   */
  private refreshInBackground(): void {
    const polled = this.now() - this.lastWorkRequestAt < 2 * this.options.rebuildIntervalMs;
    const minesAhead = this.autoMiner.isRunning && !(this.options.instant && this.options.autoMine);
    if (polled || minesAhead) {
      this.work.current(true).catch((err: unknown) => this.rebuildFailures.report(err));
    }
  }
}

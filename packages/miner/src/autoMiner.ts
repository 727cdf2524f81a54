/**
 * The built-in CPU merge-miner (docs/protocol/mining-rpc.md §6, rskj `MinerClientImpl`/`AutoMinerClient`): it wraps the
 * current work in the fake one-transaction Bitcoin block, grinds the nonce (a few attempts at
 * regtest's target of about 2^256 / 3) and imports the sealed block. With `autoMine` it mines as
 * soon as transactions are pending and keeps mining while the templates include some, so a burst
 * spreads over consecutive blocks; with `blockTimeMs` it also mines a block every interval.
 */
import {randomBytes} from "node:crypto";
import {setTimeout as sleep} from "node:timers/promises";
import {
  type BitcoinHeader,
  buildFakeBitcoinBlock,
  grindNonce,
  mergedMiningFieldsFromBlock,
  NONCE_OFFSET,
  serializeBitcoinBlock,
} from "@xchain/merged-mining";
import type {MergedMiningFields} from "@xchain/primitives";
import {type Logger, RepeatedErrorLog, readUint32LE, SerialQueue} from "@xchain/utils";
import type {MinerTxPool} from "./deps.ts";
import {MinerError, requireMiningServer} from "./errors.ts";
import type {HashrateMeter} from "./hashrate.ts";
import type {MinerOptions} from "./options.ts";
import type {BlockTemplate} from "./template/blockTemplate.ts";
import type {WorkManager} from "./template/workManager.ts";
import {MinerErrorCode, type SubmitBlockResult} from "./types.ts";

/** What the built-in miner works with. */
export interface AutoMinerDeps {
  work: WorkManager;
  txpool: Pick<MinerTxPool, "pendingForBlock">;
  /** Seals and imports a solved template (no rate limit: this is the node's own miner). */
  seal: (template: BlockTemplate, fields: MergedMiningFields) => Promise<SubmitBlockResult>;
  meter: HashrateMeter;
  options: Pick<MinerOptions, "autoMine" | "blockTimeMs" | "server">;
  /** Where a failed mining task is logged. */
  logger: Logger;
  /** Called when auto-mining has nothing left to mine: nothing it took is still on its way into a block. */
  onIdle: () => void;
  /** The timestamp a block on the head would carry if built now (the miner's clock and its time controls). */
  stampNow: () => number;
}

/** Nonces tried between two yields to the event loop. */
const GRIND_CHUNK = 1 << 16;
const NONCE_SPACE = 2 ** 32;
// rskj puts 0 to 999 random bytes before the tag; a few make every fake block, hence every block hash, unique.
const EXTRANONCE_BYTES = 4;
// The pool may still list transactions a block just included (it reacts to the chain's event): look again.
const IDLE_RETRIES = 5;
const IDLE_RETRY_MS = 50;
// After a failed block (a full disk), pending transactions are tried again this much later.
const FAILURE_RETRY_MS = 1_000;

/** Mines blocks on the node's own CPU. */
export class AutoMiner {
  private running = false;
  private closed = false;
  // Mining tasks run one at a time, so that two never solve the same template.
  private readonly queue = new SerialQueue();
  private draining: Promise<void> | undefined;
  private drainAgain = false;
  /** Ends the drain's wait for the pool to catch up (`idleRetry`), when one is under way. */
  private wake: (() => void) | undefined;
  private interval: NodeJS.Timeout | undefined;
  private intervalBusy = false;
  private retry: NodeJS.Timeout | undefined;

  // A failure that repeats (a full disk fails every block) is logged once a minute, with its count.
  private readonly failures: RepeatedErrorLog;

  constructor(private readonly deps: AutoMinerDeps) {
    this.failures = new RepeatedErrorLog(deps.logger, "mining failed");
  }

  private readonly failed = (err: unknown): void => this.failures.report(err);

  /** Whether it mines on its own (`eth_mining`). */
  get isRunning(): boolean {
    return this.running;
  }

  /** Starts mining on its own: what is pending now, then as transactions arrive and every interval. */
  start(): void {
    requireMiningServer(this.deps.options);
    if (this.running || this.closed) return;
    this.running = true;
    this.setBlockTime(this.deps.options.blockTimeMs);
    this.pendingChanged();
  }

  /** Changes the interval of empty blocks at run time (evm_setIntervalMining); 0 turns it off. */
  setBlockTime(ms: number): void {
    this.deps.options.blockTimeMs = ms;
    clearInterval(this.interval);
    this.interval = undefined;
    if (this.running && ms > 0) this.interval = setInterval(() => this.onInterval(), ms);
  }

  /** Stops mining on its own after the block in flight. */
  stop(): void {
    this.running = false;
    clearInterval(this.interval);
    this.interval = undefined;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.wake?.();
  }

  /** Transactions became pending (the caller debounces): with autoMine, mine until none is left. */
  pendingChanged(): void {
    if (!this.running || !this.deps.options.autoMine) return;
    if (this.draining) {
      // A drain waiting for the pool looks again at once; one mining looks again when done.
      if (this.wake) this.wake();
      else this.drainAgain = true;
      return;
    }
    let failed = false;
    this.draining = this.drain()
      .catch((err: unknown) => {
        failed = true;
        this.failed(err);
      })
      .finally(() => {
        this.draining = undefined;
        if (this.drainAgain) {
          this.drainAgain = false;
          this.pendingChanged();
        } else if (failed && this.running && this.deps.txpool.pendingForBlock().length > 0) {
          // Nothing else may come to wake it: the transactions already pending would wait for ever.
          this.retry ??= setTimeout(() => {
            this.retry = undefined;
            this.pendingChanged();
          }, FAILURE_RETRY_MS);
        } else {
          this.deps.onIdle();
        }
      });
  }

  /** Mines one block on the freshest work now (evm_mine), running or not; empty if nothing is pending. */
  mineBlock(): Promise<SubmitBlockResult> {
    try {
      requireMiningServer(this.deps.options);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.queue.run(async () => this.mine(await this.sealable()));
  }

  /**
   * Runs `task` between two mining tasks: after the block in flight, before the next (a dev control's head
   * move or state edit, after which the next block is made on fresh work).
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  /** Stops, abandons a grind in progress and waits for the block in flight. */
  async close(): Promise<void> {
    this.stop();
    this.closed = true;
    await this.draining;
    await this.queue.settled();
  }

  private async drain(): Promise<void> {
    let idle = 0;
    while (this.running && !this.closed) {
      const mined = await this.queue.run(async () => {
        const template = await this.sealable();
        // Only the REMASC transaction: nothing pending made it into the template.
        if (template.transactions.length <= 1) return undefined;
        await this.mine(template);
        return template;
      });
      if (mined) {
        idle = 0;
        // A template on the new head executes a block: build it only for what this block left pending.
        if (!this.leftPending(mined)) return;
        continue;
      }
      // Transactions came while it looked (its template may have read the pool before them): look again.
      if (this.drainAgain) {
        this.drainAgain = false;
        continue;
      }
      if (this.deps.txpool.pendingForBlock().length === 0 || idle === IDLE_RETRIES) return;
      idle++;
      await this.idleRetry();
      this.deps.work.markOutdated();
    }
  }

  /**
   * Whether the pool lists a transaction `mined` did not include (the pool may still list the block's
   * own until its maintenance has run). The template holds the pool's objects; one that is not (a
   * re-admitted copy) only costs a template.
   */
  private leftPending(mined: BlockTemplate): boolean {
    const pending = this.deps.txpool.pendingForBlock();
    if (pending.length === 0) return false;
    const included = new Set(mined.transactions);
    return pending.some((tx) => !included.has(tx));
  }

  /** Waits IDLE_RETRY_MS, or less when transactions become pending meanwhile (or mining stops). */
  private idleRetry(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, IDLE_RETRY_MS);
      this.wake = done;
    });
  }

  private onInterval(): void {
    if (this.intervalBusy) return;
    this.intervalBusy = true;
    this.mineBlock()
      .catch(this.failed)
      .finally(() => {
        this.intervalBusy = false;
      });
  }

  /** The freshest work, stamped when this block is mined rather than when its template was built. */
  private async sealable(): Promise<BlockTemplate> {
    return (await this.deps.work.forSealing(this.deps.stampNow)).template;
  }

  private async mine(template: BlockTemplate): Promise<SubmitBlockResult> {
    try {
      return await this.seal(template);
    } catch (e) {
      // The next attempt starts from a fresh template instead of failing on this one for ever.
      this.deps.work.invalidate();
      throw e;
    }
  }

  private async seal(template: BlockTemplate): Promise<SubmitBlockResult> {
    const fake = buildFakeBitcoinBlock({
      hashForMergedMining: template.hashForMergedMining,
      time: template.header.timestamp,
      prefix: randomBytes(EXTRANONCE_BYTES),
    });
    const solved = await this.grind(fake.header, template.target);
    return this.deps.seal(template, mergedMiningFieldsFromBlock(serializeBitcoinBlock(solved, [fake.coinbase])));
  }

  /** Grinds the nonce in chunks, yielding in between; NO_SOLUTION after every nonce, or when closed. */
  private async grind(header: BitcoinHeader, target: bigint): Promise<Uint8Array> {
    let start = 0;
    while (start < NONCE_SPACE && !this.closed) {
      const attempts = Math.min(GRIND_CHUNK, NONCE_SPACE - start);
      const solved = grindNonce({...header, nonce: start}, target, attempts);
      if (solved) {
        this.deps.meter.record(readUint32LE(solved, NONCE_OFFSET) - start + 1);
        return solved;
      }
      this.deps.meter.record(attempts);
      start += attempts;
      await sleep(0);
    }
    throw new MinerError({code: MinerErrorCode.NO_SOLUTION, attempts: start});
  }
}

/**
 * Mining and the pool (docs/rpc.md §4.10 "Mining and the pool"): blocks mined on request, automine and
 * interval mining switched at run time, pool transactions dropped.
 */
import type {ChainHead} from "@xchain/chain";
import type {AutoMiner} from "../autoMiner.ts";
import {MAX_SHIFTED_SECONDS, type MinerClock} from "../clock.ts";
import type {MinerTxPool} from "../deps.ts";
import type {MinerOptions} from "../options.ts";
import type {WorkManager} from "../template/workManager.ts";
import {notAllowed} from "./notAllowed.ts";
import type {ClockTimeControls} from "./timeControls.ts";
import type {MiningControls} from "./types.ts";

// Node's timers fire at once past 2^31 − 1 ms: the longest interval setInterval keeps.
const MAX_INTERVAL_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** What the mining controls act on. */
export interface MiningControlsDeps {
  head: () => ChainHead;
  clock: MinerClock;
  autoMiner: Pick<AutoMiner, "mineBlock" | "start" | "isRunning" | "setBlockTime" | "pendingChanged" | "exclusive">;
  /** The miner's own options, changed here at run time. */
  options: Pick<MinerOptions, "autoMine" | "instant" | "blockTimeMs" | "maxBlocksPerMine">;
  txpool: Pick<MinerTxPool, "drop" | "dropSender" | "dropAll">;
  time: Pick<ClockTimeControls, "setNextBlockTimestamp">;
  /** Templates built before a drop hold the dropped transactions. */
  work: Pick<WorkManager, "invalidate">;
}

/** anvil_mine, automine, interval mining and the pool's drops. */
export class MinerMiningControls implements MiningControls {
  constructor(private readonly deps: MiningControlsDeps) {}

  async mine(blocks: number, intervalSeconds: number, signal?: AbortSignal): Promise<number> {
    if (!Number.isSafeInteger(blocks) || blocks < 0) throw notAllowed(`cannot mine ${blocks} blocks`);
    const {maxBlocksPerMine} = this.deps.options;
    if (blocks > maxBlocksPerMine) {
      throw notAllowed(
        `cannot mine ${blocks} blocks in one call: at most ${maxBlocksPerMine} (miner.maxBlocksPerMine), each a whole block executed and stored; mine them in several calls`,
      );
    }
    if (!Number.isSafeInteger(intervalSeconds) || intervalSeconds < 0) {
      throw notAllowed(`cannot space blocks by ${intervalSeconds} seconds`);
    }
    const {head, clock, autoMiner, time} = this.deps;
    if (intervalSeconds > 0 && blocks > 1) {
      const last = clock.timestampAfter(head().header.timestamp) + (blocks - 1) * intervalSeconds;
      if (last > MAX_SHIFTED_SECONDS) {
        throw notAllowed(
          `cannot mine ${blocks} blocks ${intervalSeconds} s apart: the last one's timestamp ${last} would pass ${MAX_SHIFTED_SECONDS}, the latest a block can carry`,
        );
      }
    }
    let mined = 0;
    // A client that gave up (or a request past its time budget) stops the run: what is mined stays.
    for (; mined < blocks && !signal?.aborted; mined++) {
      // As Hardhat's hardhat_mine: the first block at the clock's time, each next one `interval` after it.
      if (mined > 0 && intervalSeconds > 0) time.setNextBlockTimestamp(head().header.timestamp + intervalSeconds);
      await autoMiner.mineBlock();
    }
    return mined;
  }

  automine(): boolean {
    return this.deps.autoMiner.isRunning && this.deps.options.autoMine;
  }

  setAutomine(enabled: boolean): void {
    const {options, autoMiner} = this.deps;
    options.autoMine = enabled;
    if (!enabled) return;
    // Hardhat's and anvil's automine: each transaction in a block of its own, its send answered once mined.
    options.instant = true;
    if (autoMiner.isRunning) autoMiner.pendingChanged();
    else autoMiner.start();
  }

  intervalMining(): number | null {
    const {options, autoMiner} = this.deps;
    return autoMiner.isRunning && options.blockTimeMs > 0 ? options.blockTimeMs / 1000 : null;
  }

  setIntervalMining(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_INTERVAL_SECONDS) {
      throw notAllowed(`cannot mine every ${seconds} seconds: the interval is 0 (off) to ${MAX_INTERVAL_SECONDS}`);
    }
    const {autoMiner} = this.deps;
    autoMiner.setBlockTime(seconds * 1000);
    if (seconds > 0 && !autoMiner.isRunning) autoMiner.start();
  }

  dropTransaction(hash: Uint8Array): Promise<boolean> {
    return this.dropping(() => this.deps.txpool.drop(hash));
  }

  dropAllTransactions(): Promise<number> {
    return this.dropping(() => this.deps.txpool.dropAll());
  }

  removePoolTransactions(sender: Uint8Array): Promise<number> {
    return this.dropping(() => this.deps.txpool.dropSender(sender));
  }

  /**
   * A drop between two mining tasks, then the work built before it dropped: a template (or a block in the
   * making) holding a dropped transaction would still mine it.
   */
  private dropping<T>(drop: () => Promise<T>): Promise<T> {
    return this.deps.autoMiner.exclusive(async () => {
      const dropped = await drop();
      this.deps.work.invalidate();
      return dropped;
    });
  }
}

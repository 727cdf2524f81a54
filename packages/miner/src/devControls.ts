/**
 * The regtest development controls (`evm_*`, docs/protocol/mining-rpc.md §6) over the built-in miner and
 * the miner clock; snapshots, revert and reset are the chain controls' (`dev/chainControls.ts`).
 */
import type {AutoMiner} from "./autoMiner.ts";
import {MAX_SHIFTED_SECONDS, type MinerClock} from "./clock.ts";
import type {MinerChain} from "./deps.ts";
import {notAllowed, requireDevControls} from "./dev/notAllowed.ts";
import type {WorkManager} from "./template/workManager.ts";
import type {DevControls, SubmitBlockResult} from "./types.ts";

/** What the controls act on. */
export interface DevControlsDeps {
  chain: Pick<MinerChain, "head">;
  clock: MinerClock;
  work: WorkManager;
  autoMiner: AutoMiner;
  /** The miner's `devControls` option. */
  enabled: boolean;
  /**
   * The chain's newBlockMaxSecondsInTheFuture: a larger total shift makes blocks the rules refuse
   * (docs/protocol/fees.md §1); 0 (regtest) sets no limit.
   */
  maxSecondsInFuture: number;
}

/** `evm_*`; every one NOT_ALLOWED when disabled. */
export class EvmControls implements DevControls {
  constructor(private readonly deps: DevControlsDeps) {}

  async mineBlock(): Promise<SubmitBlockResult> {
    this.check();
    return this.deps.autoMiner.mineBlock();
  }

  increaseTime(seconds: number): number {
    this.check();
    if (!Number.isSafeInteger(seconds) || seconds < 0) throw notAllowed(`cannot shift the clock by ${seconds} seconds`);
    const {clock, maxSecondsInFuture} = this.deps;
    const head = this.deps.chain.head().header.timestamp;
    if (Math.max(clock.nowSeconds(), head) + seconds > MAX_SHIFTED_SECONDS) {
      throw notAllowed(
        `cannot shift the clock by ${seconds} seconds: block timestamps would pass ${MAX_SHIFTED_SECONDS}, the latest a block can carry`,
      );
    }
    const shift = clock.shiftSeconds + seconds;
    if (maxSecondsInFuture > 0 && shift > maxSecondsInFuture) {
      throw notAllowed(
        `cannot shift the clock by ${seconds} seconds: a total shift of ${shift} s passes this chain's limit of ${maxSecondsInFuture} s in the future`,
      );
    }
    const total = clock.increase(seconds, head);
    this.deps.work.invalidate();
    return total;
  }

  startMining(): void {
    this.check();
    this.deps.autoMiner.start();
  }

  stopMining(): void {
    this.check();
    this.deps.autoMiner.stop();
  }

  private check(): void {
    requireDevControls(this.deps.enabled);
  }
}

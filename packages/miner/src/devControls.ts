/**
 * The regtest development controls (`evm_*`, docs/protocol/mining-rpc.md §6) over the built-in miner, the
 * miner clock and the chain's `setHead`. Snapshots are numbered 1, 2, … as in rskj (`SnapshotManager`); each
 * remembers the head's hash.
 */
import type {AutoMiner} from "./autoMiner.ts";
import {MAX_SHIFTED_SECONDS, type MinerClock} from "./clock.ts";
import type {MinerChain} from "./deps.ts";
import {MinerError} from "./errors.ts";
import type {WorkManager} from "./template/workManager.ts";
import {type DevControls, MinerErrorCode, type SubmitBlockResult} from "./types.ts";

/** What the controls act on. */
export interface DevControlsDeps {
  chain: Pick<MinerChain, "head" | "setHead" | "genesisHash">;
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
  private readonly snapshots: Uint8Array[] = [];

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

  snapshot(): number {
    this.check();
    this.snapshots.push(this.deps.chain.head().hash);
    return this.snapshots.length;
  }

  async revert(id: number): Promise<boolean> {
    this.check();
    const hash = Number.isSafeInteger(id) && id >= 1 ? this.snapshots[id - 1] : undefined;
    if (!hash) return false;
    this.snapshots.length = id - 1;
    await this.moveHead(hash);
    return true;
  }

  async reset(): Promise<void> {
    this.check();
    this.snapshots.length = 0;
    // A reset starts over in time too: a shift that broke mining must not outlive it.
    this.deps.clock.reset();
    await this.moveHead(this.deps.chain.genesisHash);
  }

  /** Work on the abandoned blocks must not be solved: it would bring them back as the heavier chain. */
  private async moveHead(hash: Uint8Array): Promise<void> {
    await this.deps.chain.setHead(hash);
    this.deps.work.cache.clear();
    this.deps.work.invalidate();
  }

  private check(): void {
    checkDevControls(this.deps.enabled);
  }
}

/** The one check of every development control (evm_*, anvil_*, hardhat_*): NOT_ALLOWED where `devControls` is off. */
export function checkDevControls(enabled: boolean): void {
  if (!enabled) throw notAllowed("the development controls (evm_*, anvil_*, hardhat_*) are disabled on this network");
}

/** A development control refused, or a bad argument to it. */
export function notAllowed(reason: string): MinerError {
  return new MinerError({code: MinerErrorCode.NOT_ALLOWED, reason});
}

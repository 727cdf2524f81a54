/**
 * The current work: the latest template on the head, rebuilt when it no longer extends the head
 * (`invalidate`, on every new head and clock shift) and, on request, when newer transactions are
 * pending (`markOutdated`). Builds are shared; each built template enters the work cache.
 */
import type {ChainHead} from "@xchain/chain";
import {bytesToHex} from "@xchain/utils";
import type {BlockTemplate} from "./blockTemplate.ts";
import type {Work, WorkCache} from "./workCache.ts";

// docs/protocol/mining-rpc.md §2 (rskj `MinerServerImpl.getNotify`): notify when the fees rose by more than 10 %.
const NOTIFY_FEES_PERCENT = 110n;

/** Builds and hands out the current template. */
export class WorkManager {
  private latest: Work | undefined;
  /** Bumped by `invalidate`: the latest template is current only when built in this epoch. */
  private epoch = 0;
  private latestEpoch = -1;
  /** Bumped by `markOutdated`; the latest template saw the marks up to `latestMarks` when its build began. */
  private marks = 0;
  private latestMarks = 0;
  private building: Promise<void> | undefined;
  private lastParent = "";
  private notifiedFees = 0n;

  constructor(
    private readonly build: (head: ChainHead) => Promise<BlockTemplate>,
    private readonly head: () => ChainHead,
    readonly cache: WorkCache,
  ) {}

  /** The template no longer extends the head (new head, shifted clock): the next `current` rebuilds. */
  invalidate(): void {
    this.epoch++;
  }

  /** Newer transactions are pending: `current(true)` rebuilds once. */
  markOutdated(): void {
    this.marks++;
  }

  /**
   * The current work, on the head. With `fresh`, a template older than the last pending
   * transactions is rebuilt first (once: a stream of transactions cannot keep it waiting).
   */
  async current(fresh = false): Promise<Work> {
    if (fresh && this.latestMarks < this.marks) {
      // A build in flight may have begun before the newest transactions: let it end, then build once more.
      await this.settled();
      if (this.latestMarks < this.marks) await this.rebuild();
    }
    for (;;) {
      const work = this.latest;
      if (work && this.latestEpoch === this.epoch) return work;
      await this.rebuild();
    }
  }

  /**
   * The work the node seals itself now (the built-in miner, evm_mine): the current work, rebuilt when its
   * timestamp is behind `stampNow()`, what a template built now would carry. A template built ahead (on
   * the new head, by a drain that found nothing to mine, for a miner's poll) and sealed a second or more
   * later would otherwise be stamped in the past. Work served to external miners is left as it is: its
   * timestamp is in the hash they mine, and it stays solvable in the cache.
   */
  async forSealing(stampNow: () => number): Promise<Work> {
    const work = await this.current(true);
    if (work.template.header.timestamp >= stampNow()) return work;
    this.invalidate();
    return this.current(true);
  }

  /** Resolves once the build in progress, if any, has finished (its failure is the requester's). */
  async settled(): Promise<void> {
    await this.building?.catch(() => undefined);
  }

  private rebuild(): Promise<void> {
    this.building ??= this.buildOnHead().finally(() => {
      this.building = undefined;
    });
    return this.building;
  }

  /** A template invalidated while it was built (the head moved) is dropped: `current` builds again. */
  private async buildOnHead(): Promise<void> {
    const epoch = this.epoch;
    const marks = this.marks;
    // A failed build leaves nothing behind: the next request builds again rather than reuse older work.
    const template = await this.build(this.head());
    if (epoch !== this.epoch) return;
    const work: Work = {template, notify: this.notifies(template)};
    this.cache.add(work);
    this.latest = work;
    this.latestEpoch = epoch;
    this.latestMarks = marks;
  }

  private notifies({header}: BlockTemplate): boolean {
    const parent = bytesToHex(header.parentHash);
    const notify = parent !== this.lastParent || header.paidFees * 100n > this.notifiedFees * NOTIFY_FEES_PERCENT;
    if (notify) this.notifiedFees = header.paidFees;
    this.lastParent = parent;
    return notify;
  }
}

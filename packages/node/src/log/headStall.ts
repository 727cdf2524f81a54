/**
 * A warning when the head stops moving on a chain where blocks are expected: after `stallMs`
 * without a new head, then again each time the silence has doubled (so a node left alone does not
 * repeat itself every few seconds). A new head re-arms it.
 */
import type {EventEmitter} from "node:events";
import type {ChainEvents, ChainHead} from "@xchain/chain";
import type {Logger} from "@xchain/utils";
import {formatDuration, shortHash} from "./format.ts";

/** How many expected block intervals without a new head make a stall. */
export const STALL_INTERVALS = 3;

/**
 * The stall threshold in milliseconds, or undefined for no warning: `headStallSeconds` when set
 * (0 turns the warning off), else `STALL_INTERVALS` times the expected block interval: the miner's
 * block time when the built-in miner runs with one, otherwise the network's target interval, except
 * on regtest where blocks come only from the node's own miner.
 */
export function headStallMs(settings: {
  headStallSeconds: number | undefined;
  minerEnabled: boolean;
  blockTimeMs: number;
  network: string;
  targetIntervalSeconds: number;
}): number | undefined {
  const {headStallSeconds, minerEnabled, blockTimeMs, network, targetIntervalSeconds} = settings;
  if (headStallSeconds !== undefined) return headStallSeconds === 0 ? undefined : headStallSeconds * 1000;
  if (minerEnabled && blockTimeMs > 0) return STALL_INTERVALS * blockTimeMs;
  return network === "regtest" ? undefined : STALL_INTERVALS * targetIntervalSeconds * 1000;
}

/** The chain as the watch reads it. */
export interface HeadStallChain {
  head(): ChainHead;
  readonly events: EventEmitter<ChainEvents>;
}

/** How long the head may stay put (`headStallMs`). */
export interface HeadStallOptions {
  stallMs: number;
}

/** What the watch reads and where it warns. */
export interface HeadStallModules {
  chain: HeadStallChain;
  logger: Logger;
}

/** Warns while the head has not moved for `stallMs`; `close` stops it. */
export class HeadStallWatch {
  private timer: NodeJS.Timeout | undefined;
  private since = Date.now();
  private readonly stallMs: number;
  private readonly chain: HeadStallChain;
  private readonly logger: Logger;

  constructor({stallMs}: HeadStallOptions, {chain, logger}: HeadStallModules) {
    this.stallMs = stallMs;
    this.chain = chain;
    this.logger = logger;
    chain.events.on("newHead", this.rearm);
    this.rearm();
  }

  close(): void {
    this.chain.events.off("newHead", this.rearm);
    clearTimeout(this.timer);
  }

  private readonly rearm = (): void => {
    this.since = Date.now();
    this.schedule(this.stallMs);
  };

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const silentMs = Date.now() - this.since;
      const head = this.chain.head();
      this.logger.warn(
        {head: head.number, silentMs},
        `no new block for ${formatDuration(silentMs)}: the head is still block ${head.number} ${shortHash(head.hash)}`,
      );
      this.schedule(silentMs);
    }, delayMs);
    this.timer.unref();
  }
}

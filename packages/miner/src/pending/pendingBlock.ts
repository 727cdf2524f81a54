/**
 * The pending block (docs/rpc.md §4.3, rskj `ExecutionBlockRetriever`): the block this node would
 * mine now on its head, number + 1, the miner clock's time, the pool's best transactions applied.
 * It is built on request and kept until the head, the pool, the clock's settings or the head's state (a
 * dev control's edit, `invalidate`) changes; its state
 * is staged with the state RPC reads, so reads at its root work without storing it.
 */
import type {ChainHead} from "@xchain/chain";
import {Block} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import type {MinerClock} from "../clock.ts";
import type {PendingStateSink} from "../deps.ts";
import {assembleNextBlock, type TemplateSources} from "../template/blockTemplate.ts";
import type {PendingBlock} from "../types.ts";

/** What the pending block is built from, besides a template's sources. */
export interface PendingBlockSources extends TemplateSources {
  head: () => ChainHead;
  /** The pool's change counter. */
  poolRevision: () => number;
  clock: MinerClock;
  state: PendingStateSink;
}

/** Builds the pending block and keeps the last one while nothing it depends on changes. */
export class PendingBlockBuilder {
  private cached: {key: string; block: Promise<PendingBlock>} | undefined;

  constructor(private readonly sources: PendingBlockSources) {}

  /** The head's state changed without a new head (a dev control's edit): the next request builds again. */
  invalidate(): void {
    this.cached = undefined;
  }

  /** The pending block on the current head; concurrent requests share one build. */
  current(): Promise<PendingBlock> {
    const head = this.sources.head();
    const key = `${bytesToHex(head.hash)}:${this.sources.poolRevision()}:${this.sources.clock.revision}`;
    if (this.cached?.key === key) return this.cached.block;
    const block = this.build(head);
    const entry = {key, block};
    this.cached = entry;
    // A failed build is not kept: the next request tries again.
    block.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return block;
  }

  private async build(head: ChainHead): Promise<PendingBlock> {
    const {header, transactions, uncles, result} = await assembleNextBlock(this.sources, head);
    this.sources.state.stageUnpersisted({root: result.stateRoot, writes: result.stateWrites});
    return {block: new Block(header, transactions, uncles), receipts: result.receipts};
  }
}

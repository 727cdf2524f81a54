/**
 * Gossiped blocks in: a block we have is ignored; one whose parent we lack is
 * ignored and the sync manager is asked to sync from the sender (it does when the sender is
 * heavier); any other is imported through the chain's full validation: accepted (forwarded by
 * gossip, VALID_BLOCK) when stored, rejected (INVALID_BLOCK) when invalid, ignored unreported when it
 * forks below the states a pruned node keeps (PARENT_STATE_PRUNED). A peer sending the same
 * block more than `repeatedMessageLimit` times is reported REPEATED_MESSAGE each time beyond.
 *
 * Blocks that arrive together (a burst of gossip) import one after the other: a block that has to
 * wait for the gossiped blocks before it has its senders recovered on another core meanwhile
 * (`senderRecovery`, docs/performance.md §3); a block alone imports at once, recovering them itself.
 */
import {type ImportResult, ImportResultKind} from "@xchain/chain";
import {type GossipMessage, type GossipVerdict, PeerEvent, type PeerNetwork} from "@xchain/p2p";
import type {Block} from "@xchain/primitives";
import {bytesToHex, type Logger} from "@xchain/utils";
import {BoundedCounter, BoundedSet} from "./boundedSet.ts";
import {errorCode, errorDetail} from "./errors.ts";
import type {SyncChain, SyncSenderRecovery, SyncTrigger} from "./types.ts";

/** What the block handler needs. */
export interface BlockGossipDeps {
  network: PeerNetwork;
  chain: SyncChain;
  sync?: SyncTrigger;
  /** Recovers the senders of a block that waits for others to import; default none. */
  senderRecovery?: SyncSenderRecovery;
  logger?: Logger;
  repeatedMessageLimit: number;
  recentHashes: number;
}

/** The handler of the block topic, and the memory of which blocks came from the network. */
export class BlockGossip {
  /** Blocks taken from gossip (imported or being imported): not published again. */
  private readonly received: BoundedSet;
  /** Blocks the chain refused: rejected again without import. */
  private readonly invalid: BoundedSet;
  private readonly repeats: BoundedCounter;
  /** Gossiped blocks handed to `importInTurn` and not imported yet. */
  private importing = 0;
  /** Settles once the last block handed to `importInTurn` is queued for import (blocks import in arrival order). */
  private lastQueued: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: BlockGossipDeps) {
    this.received = new BoundedSet(deps.recentHashes);
    this.invalid = new BoundedSet(deps.recentHashes);
    this.repeats = new BoundedCounter(deps.recentHashes);
  }

  /** Whether the block came to us by gossip. */
  fromNetwork(hash: Uint8Array): boolean {
    return this.received.has(bytesToHex(hash));
  }

  /** Validates a gossiped block (see the file comment); a fault of the node (I/O) ignores it. */
  async handle(message: GossipMessage<Block>): Promise<GossipVerdict> {
    try {
      return await this.validate(message);
    } catch (e) {
      this.deps.logger?.warn({peer: message.from, detail: errorDetail(e)}, "gossiped block not handled");
      return "ignore";
    }
  }

  private async validate(message: GossipMessage<Block>): Promise<GossipVerdict> {
    const {network, chain} = this.deps;
    const {from, value: block} = message;
    const hash = block.hash();
    const key = bytesToHex(hash);
    if (this.repeats.increment(`${from}/${key}`) > this.deps.repeatedMessageLimit) {
      network.report(from, PeerEvent.REPEATED_MESSAGE);
    }
    if (this.invalid.has(key)) {
      network.report(from, PeerEvent.INVALID_BLOCK);
      return "reject";
    }
    if (this.received.has(key) || (await chain.getHeader(hash))) return "ignore";
    if (!(await chain.getHeader(block.header.parentHash))) {
      this.deps.logger?.debug({peer: from, number: block.header.number}, "gossiped block with an unknown parent");
      this.deps.sync?.requestSync(from);
      return "ignore";
    }
    this.received.add(key);
    const result = await this.importInTurn(block);
    switch (result.kind) {
      case ImportResultKind.IMPORTED_BEST:
      case ImportResultKind.IMPORTED_NOT_BEST:
        network.report(from, PeerEvent.VALID_BLOCK);
        return "accept";
      case ImportResultKind.EXIST:
        return "ignore";
      case ImportResultKind.NO_PARENT:
        this.received.delete(key);
        this.deps.sync?.requestSync(from);
        return "ignore";
      case ImportResultKind.INVALID_BLOCK:
        this.invalid.add(key);
        this.deps.logger?.warn(
          {peer: from, number: block.header.number, code: errorCode(result.error)},
          "gossiped block is invalid",
        );
        network.report(from, PeerEvent.INVALID_BLOCK);
        return "reject";
      case ImportResultKind.PARENT_STATE_PRUNED:
        // Not known to be invalid, so not reported; not forwarded either (docs/operations.md §12).
        this.deps.logger?.warn(
          {peer: from, number: block.header.number, code: result.error.code, detail: result.error.message},
          "gossiped block forks below the states this node keeps: not followed",
        );
        return "ignore";
    }
  }

  /**
   * Imports `block` after the gossiped blocks handed in before it. One that has to wait for them has
   * its senders recovered meanwhile; a failed recovery (its worker stopped) leaves them to the import.
   */
  private async importInTurn(block: Block): Promise<ImportResult> {
    const recovery = this.deps.senderRecovery;
    const recovered =
      this.importing > 0 && recovery ? recovery.recover(block.transactions).catch(() => undefined) : undefined;
    const before = this.lastQueued;
    let queued = (): void => undefined;
    this.lastQueued = new Promise<void>((resolve) => {
      queued = resolve;
    });
    this.importing++;
    try {
      await recovered;
      await before;
      const result = this.deps.chain.importBlock(block);
      queued();
      return await result;
    } finally {
      queued();
      this.importing--;
    }
  }
}

import {StateError, StateErrorCode} from "../errors.ts";
import {trieWrite} from "../nodeStore.ts";
import {OverlayStateManager} from "../overlayStateManager.ts";
import {preimageWrites} from "../session.ts";
import type {StateCommit, StateSession} from "../types.ts";
import {commitDelta} from "./deltaCommit.ts";
import type {ForkStateReader} from "./forkStateReader.ts";
import type {StateBase} from "./stateBase.ts";

/** What a forked session needs of its database. */
export interface ForkSessionContext {
  /**
   * A reader of the state at `root`, whose nodes not yet persisted are in `unpersisted` (the
   * session's own commits, readable before the caller stores them).
   */
  readerAt(root: Uint8Array, unpersisted: ReadonlyMap<string, Uint8Array>): ForkStateReader;
  /** Keeps committed nodes in the shared node cache (content-addressed: right whether or not they are stored). */
  remember(entries: Iterable<[string, Uint8Array]>): void;
  recordPreimages: boolean;
  /** The caller is done with the session after committing `root` (see `StateSession.release`). */
  onRelease(session: ForkStateSession, root: Uint8Array): void;
}

/**
 * A writable forked state (see `StateSession`): execution writes into an `OverlayStateManager`
 * over a `ForkStateReader`; `commit()` turns the overlay's net writes into delta-trie writes and
 * goes on from the new root. Reads, from the delta or the base, never write anything.
 */
export class ForkStateSession implements StateSession {
  readonly stateManager: OverlayStateManager;
  /** Entries of this session's commits, served from memory until `forgetPersisted()`. */
  private readonly taken = new Map<string, Uint8Array>();
  private lastCommitRoot: Uint8Array | undefined;

  constructor(
    private reader: ForkStateReader,
    private readonly context: ForkSessionContext,
  ) {
    this.stateManager = new OverlayStateManager(reader);
  }

  /** The base it reads from (a re-fork makes a released session unusable). */
  get base(): StateBase {
    return this.reader.base;
  }

  async commit(): Promise<StateCommit> {
    const net = this.stateManager.netWrites();
    if (net === undefined) {
      throw new StateError({code: StateErrorCode.CHECKPOINT_OPEN}, "commit the state manager's checkpoints first");
    }
    const reader = this.reader;
    const delta = await commitDelta(reader, reader.nodes, net, this.context.recordPreimages);
    for (const [key, value] of delta.entries) this.taken.set(key, value);
    this.context.remember(delta.entries);
    this.reader = this.context.readerAt(delta.root, this.taken);
    this.stateManager.reset(this.reader);
    this.lastCommitRoot = delta.root;
    const writes = [...delta.entries].map(([key, value]) => trieWrite(key, value));
    if (delta.preimages.size > 0) writes.push(...preimageWrites(delta.preimages));
    return {root: delta.root, writes};
  }

  release(): void {
    if (this.lastCommitRoot && this.stateManager.netWrites() !== undefined) {
      this.context.onRelease(this, this.lastCommitRoot);
    }
  }

  /** Reused after its writes were persisted: the store serves them now. */
  forgetPersisted(): void {
    this.taken.clear();
    this.reader = this.context.readerAt(this.reader.root, this.taken);
    this.stateManager.reset(this.reader);
  }
}

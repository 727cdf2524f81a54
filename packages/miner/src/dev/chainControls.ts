/**
 * The chain controls of a dev node (docs/rpc.md §4.10 "Snapshots, reset, dump and load"): evm_snapshot,
 * evm_revert, evm_reset, anvil's dumpState/loadState, and on a forked chain the move to another fork
 * block (anvil_reset with `forking`, docs/forking.md §3.2).
 *
 * A snapshot is the head's hash, the head's effective state root (a dev edit's, `Chain.stateRootAfter`),
 * the pool's transactions and the miner clock's adjustments. The snapshot pins its state root
 * (`Chain.retainState`), so a pruned node's state collections keep it however far the chain moves on
 * (docs/operations.md §12) until the snapshot is reverted to or dropped: taking one and reverting to it
 * cost nothing in the size of the state (`Chain.setHead` with the saved root; O(pool) for the pool). Snapshots are numbered 1, 2, … as in
 * rskj (`SnapshotManager`); reverting to one forgets it and every later one (rskj's and Hardhat's).
 */
import type {ForkAnchor, StatePin} from "@xchain/chain";
import type {ForkAncestry} from "@xchain/execution";
import {REMASC_SENDER} from "@xchain/primitives";
import type {DumpedAccount, StateDump} from "@xchain/state";
import type {TxPoolSnapshot} from "@xchain/txpool";
import {equalBytes} from "@xchain/utils";
import type {MinerClock, MinerClockState} from "../clock.ts";
import type {MinerChain, MinerTxPool} from "../deps.ts";
import type {WorkManager} from "../template/workManager.ts";
import type {StateDumpSource} from "../types.ts";
import {notAllowed} from "./notAllowed.ts";
import type {ChainControls} from "./types.ts";

/** What the chain controls act on. */
export interface ChainControlsDeps {
  chain: Pick<
    MinerChain,
    | "head"
    | "fork"
    | "setHead"
    | "genesisHash"
    | "initialStateRoot"
    | "reanchor"
    | "stateRootAfter"
    | "editHeadState"
    | "retainState"
  >;
  txpool: Pick<MinerTxPool, "snapshot" | "restore">;
  clock: MinerClock;
  work: WorkManager;
  /** Where the head's state is listed from (the node's state database); absent, dumps are refused. */
  states: StateDumpSource | undefined;
  /** The largest dump, in bytes of JSON (the miner's `dumpStateMaxBytes`). */
  dumpMaxBytes: number;
  /** Runs a head move or state edit with the built-in miner held (`AutoMiner.exclusive`). */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
}

interface Snapshot {
  hash: Uint8Array;
  stateRoot: Uint8Array;
  /** Keeps `stateRoot` through state collections while the snapshot exists. */
  pin: StatePin;
  pool: TxPoolSnapshot;
  clock: MinerClockState;
}

const EMPTY_POOL: TxPoolSnapshot = {transactions: []};

/** Snapshots, revert, reset, dump and load over the chain, the pool and the clock. */
export class DevChainControls implements ChainControls {
  private readonly snapshots: Snapshot[] = [];
  readonly dumpMaxBytes: number;

  constructor(private readonly deps: ChainControlsDeps) {
    this.dumpMaxBytes = deps.dumpMaxBytes;
  }

  snapshot(): number {
    const {chain, txpool, clock} = this.deps;
    const head = chain.head();
    const stateRoot = chain.stateRootAfter(head.header);
    this.snapshots.push({
      hash: head.hash,
      stateRoot,
      pin: chain.retainState(stateRoot),
      pool: txpool.snapshot(),
      clock: clock.save(),
    });
    return this.snapshots.length;
  }

  async revert(id: number): Promise<boolean> {
    const snapshot = Number.isSafeInteger(id) && id >= 1 ? this.snapshots[id - 1] : undefined;
    if (!snapshot) return false;
    const dropped = this.snapshots.splice(id - 1);
    // The pins go once the head has moved: the reverted-to state is the head's then, kept as any head's.
    await this.moveHead(snapshot.hash, snapshot.stateRoot).finally(() => {
      for (const {pin} of dropped) pin.release();
    });
    this.deps.clock.restore(snapshot.clock);
    await this.deps.txpool.restore(snapshot.pool);
    return true;
  }

  async reset(): Promise<void> {
    const {chain} = this.deps;
    // Back to the genesis (a fork's anchor) and the chain's first state (R₀ on a fork): any edit of it is dropped.
    await this.startOver(() => this.moveHead(chain.genesisHash, chain.initialStateRoot()));
  }

  async reanchor(anchor: ForkAnchor, ancestry: ForkAncestry): Promise<void> {
    if (!this.deps.chain.fork) throw notAllowed("this node runs no fork: it cannot be reset onto a fork block");
    await this.startOver(() => this.exclusiveMove(() => this.deps.chain.reanchor(anchor, ancestry)));
  }

  async dumpState(): Promise<StateDump> {
    const {chain, states} = this.deps;
    if (!states) throw notAllowed("this miner was built without a state to list: anvil_dumpState is not available");
    return states.dump(chain.stateRootAfter(chain.head().header), {maxBytes: this.dumpMaxBytes});
  }

  async loadState(accounts: readonly DumpedAccount[]): Promise<void> {
    await this.deps.exclusive(() =>
      this.deps.chain.editHeadState(async (state) => {
        for (const {address, nonce, balance, code, storage} of accounts) {
          const current = await state.getAccount(address);
          // anvil keeps the higher nonce, so that a load cannot make sent transactions replayable. The
          // REMASC sender's nonce counts this chain's blocks (each block's REMASC transaction carries it):
          // a dump of another height must not move it.
          const currentNonce = current?.nonce ?? 0n;
          const kept = currentNonce > nonce || equalBytes(address, REMASC_SENDER);
          await state.setNonce(address, kept ? currentNonce : nonce);
          await state.setBalance(address, balance);
          if (code.length > 0 || (current?.code.length ?? 0) > 0) await state.setCode(address, code);
          for (const [slot, value] of storage) await state.setStorage(address, slot, value);
        }
      }),
    );
  }

  /**
   * Work on the abandoned blocks must not be solved: it would bring them back as the heavier chain. So the
   * move waits for the block the built-in miner is making (an interval block, an instant one) and holds the
   * next one back until the work on the old head is dropped.
   */
  private moveHead(hash: Uint8Array, stateRoot: Uint8Array): Promise<void> {
    return this.exclusiveMove(() => this.deps.chain.setHead(hash, {stateRoot}));
  }

  private exclusiveMove(move: () => Promise<unknown>): Promise<void> {
    return this.deps.exclusive(async () => {
      await move();
      this.deps.work.cache.clear();
      this.deps.work.invalidate();
    });
  }

  /** A reset's frame: no snapshot, no clock shift, `move`, then an empty pool. */
  private async startOver(move: () => Promise<void>): Promise<void> {
    for (const {pin} of this.snapshots.splice(0)) pin.release();
    // A reset starts over in time too: a shift that broke mining must not outlive it.
    this.deps.clock.reset();
    await move();
    await this.deps.txpool.restore(EMPTY_POOL);
  }
}

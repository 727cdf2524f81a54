/**
 * Wiring step 3, the pool and the miner: the txpool with its journal, and the miner with block
 * assembly on a state database of its own (same store), so that it does not take the chain's warm
 * session away from imports (state README). The impersonated accounts (a dev control, docs/rpc.md
 * §4.10) are built first: the pool admits by them and RPC drives them.
 */
import {join} from "node:path";
import type {Chain} from "@xchain/chain";
import {BlockExecutor} from "@xchain/execution";
import {ImpersonatedAccounts, Miner} from "@xchain/miner";
import {StateDatabase} from "@xchain/state";
import {JOURNAL_FILE, TxJournal, TxPool} from "@xchain/txpool";
import type {Logger} from "../logger.ts";
import {SECONDARY_STATE_SHARE, stateOptions} from "../memoryBudget.ts";
import type {NodeOptions} from "../options.ts";
import type {Closers} from "./closers.ts";
import type {Storage} from "./storage.ts";

/** What the step builds. */
export interface PoolAndMiner {
  txpool: TxPool;
  miner: Miner;
  /** The senders the node sends for without their key (refusing everything where `miner.devControls` is off). */
  impersonation: ImpersonatedAccounts;
  /** Block assembly's state (its caches are reported with the others). */
  assemblerState: StateDatabase;
  /**
   * Loads the journal's transactions into the pool and starts writing it; run once the miner and
   * the relay listen, so that they take them as new ones (docs/operations.md §7).
   */
  replayJournal(): Promise<void>;
}

/** What the step builds on besides the storage. */
export interface PoolAndMinerModules {
  storage: Storage;
  chain: Chain;
  /** Why work on the head may be a dead fork (p2p starts after the miner: read when work is asked for). */
  notSyncedReason: () => string | undefined;
  logger: Logger;
}

/** Builds the txpool, its journal and the miner. */
export function startPoolAndMiner(
  opts: NodeOptions,
  {storage: {chainspec, db, state, fork}, chain, notSyncedReason, logger}: PoolAndMinerModules,
  closers: Closers,
): PoolAndMiner {
  const impersonation = new ImpersonatedAccounts(opts.miner);
  const txpool = new TxPool(opts.txpool, {
    chainspec,
    chain,
    logger: logger.child({module: "txpool"}),
    storageFault: () => db.diskFull?.message,
    impersonation,
  });
  // The journal is written once the pool takes nothing more (docs/operations.md §7).
  const journal = opts.txpool.journal
    ? new TxJournal(
        {...opts.txpool, path: join(opts.dataDir, JOURNAL_FILE)},
        {pool: txpool, logger: logger.child({module: "txpool"})},
      )
    : undefined;
  closers.push({name: "txpool", close: () => txpool.close().then(() => journal?.close())});

  // On a fork, assembly reads the upstream's state as the chain's import does (and its hashes through the chain).
  const assemblerState = new StateDatabase(stateOptions(opts.state, SECONDARY_STATE_SHARE, opts.miner.devControls), {
    store: db,
    ...(fork ? {base: fork.holder} : {}),
  });
  const miner = new Miner(opts.miner, {
    chain,
    txpool,
    assembler: new BlockExecutor({}, {chainspec, state: assemblerState}),
    chainspec,
    // The pending block's state is staged where RPC reads state.
    pendingState: state,
    stateDumps: state,
    // anvil_dealERC20's probes of a token's storage run calls on the miner's own state.
    probeState: assemblerState,
    logger: logger.child({module: "miner"}),
    notSyncedReason,
  });
  closers.push({name: "miner", close: () => miner.close()});
  const replayJournal = async () => {
    if (!journal) return;
    await journal.load();
    journal.start();
  };
  return {txpool, miner, impersonation, assemblerState, replayJournal};
}

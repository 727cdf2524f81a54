/** Wiring step 2, the chain: opened over the storage, with the data directory's head record kept from then on. */
import {Chain, ChainError, ChainErrorCode, describeForkAnchor, readForkAnchorId} from "@xchain/chain";
import {BlockExecutor} from "@xchain/execution";
import {damaged, startErrorOf} from "../dataDir/openDatabase.ts";
import {keepHeadRecord} from "../dataDir/recordedHead.ts";
import type {Logger} from "../logger.ts";
import {chainOptions, type NodeOptions} from "../options.ts";
import type {Closers} from "./closers.ts";
import {forkAnchorOf} from "./fork.ts";
import type {Storage} from "./storage.ts";

/** What the chain step builds; `executor` runs imports and, without call workers, calls. */
export interface ChainParts {
  chain: Chain;
  executor: BlockExecutor;
}

/**
 * Opens the chain (in fork mode over the fork anchor: stored on a first start, checked on a restart);
 * a database without its head block or the one the record names stops start-up.
 */
export async function openChain(
  opts: NodeOptions,
  storage: Storage,
  logger: Logger,
  closers: Closers,
): Promise<ChainParts> {
  const {chainspec, genesis, db, record, state, fork} = storage;
  const executor = new BlockExecutor({}, {chainspec, state});
  const modules = {store: db, chainspec, state, executor, logger: logger.child({module: "chain"})};
  const opening = fork
    ? forkAnchorOf(opts, fork, state).then((anchor) =>
        Chain.openFork(chainOptions(opts), {...modules, fork: {anchor, ancestry: fork.ancestry}}),
      )
    : refuseForkedStore(db).then(() => Chain.open(chainOptions(opts), {...modules, genesis}));
  const chain = await opening.catch((e) => {
    if (e instanceof ChainError && e.code === ChainErrorCode.HEAD_MISSING) {
      throw damaged(opts.dataDir, "its head block is not stored", true);
    }
    if (fork && e instanceof ChainError && e.code === ChainErrorCode.FORK_MISMATCH) {
      throw new ChainError(
        e.type,
        `${e.message} (data directory ${opts.dataDir}): fork into another --datadir (or with --dev.ephemeral), or leave fork.block out to continue the fork it holds (an anvil_reset may have moved it: docs/forking.md §8.1)`,
      );
    }
    if (e instanceof ChainError && e.code === ChainErrorCode.SCHEMA_VERSION_MISMATCH) {
      throw new ChainError(e.type, `${e.message}: the data directory ${opts.dataDir} cannot be opened by this node`);
    }
    throw startErrorOf(e, opts.dataDir);
  });
  const identity = {network: chainspec.params.name, chainId: chainspec.params.chainId};
  const recorder = await keepHeadRecord(opts.dataDir, record, chain, identity, logger.child({module: "db"}));
  const recordHead = ({head}: {head: {number: number; hash: Uint8Array}}) => recorder.update(head);
  chain.events.on("newHead", recordHead);
  // Closed before the database (closers run in reverse): a collection step in flight finishes first.
  closers.push({name: "state collector", close: () => chain.stopCollecting()});
  closers.push({name: "flat state generation", close: () => chain.stopFlatState()});
  closers.push({
    name: "database record",
    close: () => {
      chain.events.off("newHead", recordHead);
      return recorder.close();
    },
  });
  return {chain, executor};
}

/** A data directory holding a fork opens only in fork mode: say so rather than report a genesis mismatch. */
async function refuseForkedStore(db: Storage["db"]): Promise<void> {
  const anchor = await readForkAnchorId(db);
  if (anchor === undefined) return;
  throw new ChainError(
    {code: ChainErrorCode.FORK_MISMATCH, expected: "a chain from its genesis", stored: describeForkAnchor(anchor)},
    `the data directory holds a fork of ${describeForkAnchor(anchor)}: start it with --fork.url (docs/forking.md §4)`,
  );
}

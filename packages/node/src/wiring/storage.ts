/**
 * Wiring step 1, storage: the network's chainspec and genesis, the database and the world state over
 * it; in fork mode the upstream reader too, with the fork's rules and base (wiring/fork.ts).
 */
import {type Chainspec, chainspecWithFederationKeys, type GenesisParams} from "@xchain/chainspec";
import type {LevelStore} from "@xchain/db";
import {callWorkerCount} from "@xchain/execution";
import {StateDatabase} from "@xchain/state";
import {openDatabase} from "../dataDir/openDatabase.ts";
import type {DataDirRecord} from "../dataDir/record.ts";
import type {Logger} from "../logger.ts";
import {levelDbMemory, stateOptions} from "../memoryBudget.ts";
import {loadNetwork} from "../network.ts";
import type {NodeOptions} from "../options.ts";
import type {Closers} from "./closers.ts";
import {type ForkParts, openForkUpstream} from "./fork.ts";

const MIB = 1024 * 1024;

/** What the storage step opens. */
export interface Storage {
  chainspec: Chainspec;
  genesis: GenesisParams;
  db: LevelStore;
  /** The data directory's record of the head, when it has one (checked by the chain step). */
  record: DataDirRecord | undefined;
  /** The main thread's world state: imports and RPC read it, the pending block is staged in it. */
  state: StateDatabase;
  /** Fork mode's upstream, rules and base (`chainspec` is then the fork's). */
  fork: ForkParts | undefined;
}

/** Loads the network, opens the database (shared with the call workers, when there are any) and the state. */
export async function openStorage(opts: NodeOptions, logger: Logger, closers: Closers): Promise<Storage> {
  const network = await loadNetwork(opts.network, opts.genesisFile);
  const {genesis} = network;
  // A private network's own Bridge federation (docs/protocol/native-contracts.md §10.3).
  const chainspec = chainspecWithFederationKeys(network.chainspec, opts.bridge.genesisFederationPublicKeys);
  const {db, record} = await openDatabase(
    opts.dataDir,
    {
      shared: callWorkerCount(opts.rpc.callWorkers) > 0,
      minFreeBytes: opts.db.minFreeMb * MIB,
      ...levelDbMemory(opts.db),
    },
    logger,
  );
  closers.push({name: "database", close: () => db.close()});
  const fork = opts.fork.url === undefined ? undefined : await openForkUpstream(opts, db, logger, closers);
  const state = new StateDatabase(stateOptions(opts.state, 1, opts.miner.devControls), {
    store: db,
    ...(fork ? {base: fork.holder} : {}),
  });
  return {chainspec: fork?.chainspec ?? chainspec, genesis, db, record, state, fork};
}

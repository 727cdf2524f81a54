/** Wiring step 2, the chain: opened over the storage, with the data directory's head record kept from then on. */
import {Chain, ChainError, ChainErrorCode} from "@xchain/chain";
import {BlockExecutor} from "@xchain/execution";
import {damaged, startErrorOf} from "../dataDir/openDatabase.ts";
import {keepHeadRecord} from "../dataDir/recordedHead.ts";
import type {Logger} from "../logger.ts";
import type {NodeOptions} from "../options.ts";
import type {Closers} from "./closers.ts";
import type {Storage} from "./storage.ts";

/** What the chain step builds; `executor` runs imports and, without call workers, calls. */
export interface ChainParts {
  chain: Chain;
  executor: BlockExecutor;
}

/** Opens the chain; a database without its head block or the one the record names stops start-up. */
export async function openChain(
  opts: NodeOptions,
  {chainspec, genesis, db, record, state}: Storage,
  logger: Logger,
  closers: Closers,
): Promise<ChainParts> {
  const executor = new BlockExecutor({}, {chainspec, state});
  const chain = await Chain.open(opts.chain, {
    store: db,
    chainspec,
    genesis,
    state,
    executor,
    logger: logger.child({module: "chain"}),
  }).catch((e) => {
    if (e instanceof ChainError && e.code === ChainErrorCode.HEAD_MISSING) {
      throw damaged(opts.dataDir, "its head block is not stored", true);
    }
    throw startErrorOf(e, opts.dataDir);
  });
  const identity = {network: chainspec.params.name, chainId: chainspec.params.chainId};
  const recorder = await keepHeadRecord(opts.dataDir, record, chain, identity, logger.child({module: "db"}));
  const recordHead = ({head}: {head: {number: number; hash: Uint8Array}}) => recorder.update(head);
  chain.events.on("newHead", recordHead);
  closers.push({
    name: "database record",
    close: () => {
      chain.events.off("newHead", recordHead);
      return recorder.close();
    },
  });
  return {chain, executor};
}

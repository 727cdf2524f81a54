/**
 * Fork mode's part of the storage and chain steps (docs/forking.md §4): the upstream reader opened at
 * the fork block (the one the data directory already forked, on a restart without `fork.block`), the
 * fork's rules, the base every state of the fork reads through, BLOCKHASH below the fork, and the
 * anchor `Chain.openFork` stores on a first start (checked against the stored one on a restart).
 */
import {buildUpstreamAnchor, type ForkAnchor, readForkAnchorId, upstreamAncestry} from "@xchain/chain";
import {COW_ACCOUNT_BALANCE, COW_ADDRESSES, type ForkChainspec, forkChainspec} from "@xchain/chainspec";
import type {KeyValueStore} from "@xchain/db";
import type {ForkAncestry} from "@xchain/execution";
import {MAX_CHAIN_ID} from "@xchain/primitives";
import {
  defaultForkSourceOptions,
  type ForkBaseHolder,
  ForkSource,
  forkSourceBase,
  type InitialForkAccount,
  type StateBase,
  type StateDatabase,
} from "@xchain/state";
import {NodeStartError, NodeStartErrorCode} from "../errors.ts";
import {forkBlockOf} from "../fork/forkOptions.ts";
import type {Logger} from "../logger.ts";
import {forkCacheDir, type NodeOptions} from "../options.ts";
import type {Closers} from "./closers.ts";

/**
 * What fork mode opens before the state. `source`, `base` and `ancestry` are replaced together by a
 * re-fork (anvil_reset with `forking`, forkControls.ts): whoever reads them through these parts (the
 * holder, the rpc's history, the closer) follows.
 */
export interface ForkParts {
  /** The upstream reader in use (closed with the node). */
  source: ForkSource;
  /** `forkChainspec`: regtest's rules with the upstream's chain id (or `fork.chainId`); its F follows a re-fork. */
  chainspec: ForkChainspec;
  /** The upstream's state at the fork block: `forkSourceBase(source)`. */
  base: StateBase;
  /** Answers `base`, for every `StateDatabase` of the process. */
  holder: ForkBaseHolder;
  /** BLOCKHASH at and below the fork block: the upstream's. */
  ancestry: ForkAncestry;
  /** Sources replaced by a re-fork and not yet closed (their reads in flight settling), closed with the node. */
  retiring: Set<ForkSource>;
}

/** Opens the upstream reader at the fork block and derives the fork's rules, base and ancestry. */
export async function openForkUpstream(
  opts: NodeOptions,
  db: KeyValueStore,
  logger: Logger,
  closers: Closers,
): Promise<ForkParts> {
  const url = opts.fork.url as string;
  // A restart without fork.block keeps the block forked first (head − safeDepth has moved on since).
  const stored = await readForkAnchorId(db);
  const block = forkBlockOf(opts.fork.block) ?? stored?.hash;
  const source = await ForkSource.open(
    {
      ...defaultForkSourceOptions,
      url,
      block,
      cacheDir: forkCacheDir(opts),
      offline: opts.fork.offline,
      verify: opts.fork.verify,
      requestsPerSecond: opts.fork.requestsPerSecond,
      retries: opts.fork.retries,
      timeoutMs: opts.fork.timeoutMs,
      safeDepth: opts.fork.safeDepth,
    },
    {logger: logger.child({module: "fork"})},
  );
  let parts: ForkParts | undefined;
  // The source in use and those a re-fork replaced (each closes once: ForkSource.close).
  closers.push({
    name: "fork upstream",
    close: async () => {
      for (const opened of parts ? [parts.source, ...parts.retiring] : [source]) await opened.close();
    },
  });
  if (opts.fork.chainId === undefined && source.chainId > BigInt(MAX_CHAIN_ID)) {
    throw new NodeStartError(
      {code: NodeStartErrorCode.FORK_CHAIN_ID_UNSIGNABLE, upstreamChainId: source.chainId.toString()},
      `the upstream's chain id ${source.chainId} does not fit a Rootstock transaction's one-byte v (chain ids 1 to ${MAX_CHAIN_ID}): give the fork one with --fork.chainId`,
    );
  }
  const chainspec = forkChainspec({
    upstreamChainId: Number(source.chainId),
    forkBlockNumber: source.header.number,
    ...(opts.fork.chainId === undefined ? {} : {chainId: opts.fork.chainId}),
  });
  const base = forkSourceBase(source);
  const opened: ForkParts = {
    source,
    chainspec,
    base,
    holder: {current: () => opened.base},
    ancestry: upstreamAncestry(source),
    retiring: new Set(),
  };
  parts = opened;
  return opened;
}

/**
 * The anchor of the fork (nothing written). With the dev wallet on, the cow accounts are funded as
 * regtest's genesis funds them (anvil funds its dev accounts on a fork too), keeping the nonce and
 * code the upstream gives them.
 */
export async function forkAnchorOf(
  opts: NodeOptions,
  fork: Pick<ForkParts, "source" | "base" | "chainspec">,
  state: StateDatabase,
): Promise<ForkAnchor> {
  const {source, base, chainspec} = fork;
  const accounts = opts.wallet.enabled ? await devAccounts(base) : [];
  return buildUpstreamAnchor({source, base, chainspec, accounts}, state);
}

async function devAccounts(base: StateBase): Promise<[Uint8Array, InitialForkAccount][]> {
  return Promise.all(
    COW_ADDRESSES.map(async (address): Promise<[Uint8Array, InitialForkAccount]> => {
      const upstream = await base.account(address);
      const account: InitialForkAccount = {nonce: upstream?.nonce ?? 0n, balance: COW_ACCOUNT_BALANCE};
      return [address, upstream ? {...account, codeHash: upstream.codeHash} : account];
    }),
  );
}

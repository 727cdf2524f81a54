/**
 * The controls of a forked node (docs/forking.md §8), the rpc's `ForkControls`: `anvil_reset` with
 * `forking` re-forks at another block or upstream, `anvil_setRpcUrl` reads the same fork from another
 * upstream, and `info` is what `anvil_metadata` and `anvil_nodeInfo` report.
 *
 * A re-fork opens a new `ForkSource` on the same cache (`ForkSource.refork`), builds the anchor over
 * its base, installs source, base and ancestry in the `ForkParts` (so the state's base holder, the
 * rpc's history and the closer follow) and moves the chainspec's F, then has the miner's chain
 * controls re-anchor the chain (`DevChainControls.reanchor`: the miner held, snapshots, pool and clock
 * shift dropped). The replaced source is closed once the reads in flight on it have settled
 * (`ForkSource.retire`). The controls run one at a time.
 */

import {upstreamAncestry} from "@xchain/chain";
import type {ChainControls} from "@xchain/miner";
import type {ForkControls, ForkInfo, ReforkRequest} from "@xchain/rpc";
import {type ForkSource, forkSourceBase, type StateDatabase} from "@xchain/state";
import {FIRST_BACKOFF_MS, SerialQueue, toData} from "@xchain/utils";
import type {Logger} from "../logger.ts";
import type {NodeOptions} from "../options.ts";
import {type ForkParts, forkAnchorOf} from "./fork.ts";

/** What the fork's controls act on. */
export interface ForkControlsModules {
  fork: ForkParts;
  /** The main thread's state: the new anchor's first state is computed there. */
  state: StateDatabase;
  /** The miner's chain controls (asked when used: the miner's dev controls may be off). */
  chainControls: () => ChainControls;
  logger: Logger;
}

/** What a re-fork replaces, and puts back when the re-anchor fails. */
type Installed = Pick<ForkParts, "source" | "base" | "ancestry">;

export class NodeForkControls implements ForkControls {
  private readonly queue = new SerialQueue();

  constructor(
    private readonly opts: NodeOptions,
    private readonly modules: ForkControlsModules,
  ) {}

  info(): ForkInfo {
    const {source} = this.modules.fork;
    return {
      url: source.url,
      upstreamChainId: source.chainId,
      blockNumber: source.header.number,
      blockHash: source.header.hash,
      retryBackoffMs: FIRST_BACKOFF_MS,
    };
  }

  reset(request: ReforkRequest): Promise<void> {
    return this.queue.run(async () => {
      const {fork, state, logger} = this.modules;
      const controls = this.modules.chainControls(); // refused before anything is opened when the dev controls are off
      const previous: Installed = {source: fork.source, base: fork.base, ancestry: fork.ancestry};
      const source = await previous.source.refork({url: request.jsonRpcUrl, block: request.blockNumber});
      try {
        const next: Installed = {source, base: forkSourceBase(source), ancestry: upstreamAncestry(source)};
        const anchor = await forkAnchorOf(this.opts, {...next, chainspec: fork.chainspec}, state);
        // R₀′'s marker names the new base: the holder answers it before the chain moves onto it.
        this.install(next);
        try {
          await controls.reanchor(anchor, next.ancestry);
        } catch (e) {
          this.install(previous);
          throw e;
        }
      } catch (e) {
        await source.close();
        throw e;
      }
      this.retire(previous.source);
      logger.info(
        {url: source.url, block: source.header.number, hash: toData(source.header.hash)},
        "fork reset onto another fork block",
      );
    });
  }

  setRpcUrl(url: string): Promise<void> {
    return this.queue.run(() => this.modules.fork.source.repoint(url));
  }

  private install({source, base, ancestry}: Installed): void {
    const {fork} = this.modules;
    fork.source = source;
    fork.base = base;
    fork.ancestry = ancestry;
    fork.chainspec.moveForkBlock(source.header.number);
  }

  /** Closes `replaced` once its reads in flight have settled; the node's closer closes it if it stops first. */
  private retire(replaced: ForkSource): void {
    const {retiring} = this.modules.fork;
    retiring.add(replaced);
    replaced.retire().then(
      () => retiring.delete(replaced),
      (e: unknown) => this.modules.logger.warn({err: e}, "closing the replaced fork upstream failed"),
    );
  }
}

/**
 * Wiring step 4, the network: the p2p stack (host, scoring, sync, relay) when `p2p.enabled`. The stack's
 * modules (libp2p, the sync) load only then: a node without p2p starts without them (docs/performance.md §13).
 */
import type {Chain} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {TxPool} from "@xchain/txpool";
import type {Logger} from "../logger.ts";
import type {NodeOptions} from "../options.ts";
import type {P2PStack} from "../p2pStack.ts";
import type {Closers} from "./closers.ts";

/** Starts the p2p stack; undefined when p2p is off. */
export async function startNetwork(
  opts: NodeOptions,
  modules: {chainspec: Chainspec; chain: Chain; txpool: TxPool; logger: Logger},
  closers: Closers,
): Promise<P2PStack | undefined> {
  if (!opts.p2p.enabled) return undefined;
  const {startP2P} = await import("../p2pStack.ts");
  const p2p = await startP2P(opts, {...modules, dataDir: opts.dataDir});
  closers.push({name: "p2p", close: () => p2p.close()});
  return p2p;
}

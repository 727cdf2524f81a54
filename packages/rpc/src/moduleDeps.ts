/**
 * What each namespace module is given: the server's dependencies with their defaults, its
 * options and its services. Apart from deps.ts, which the services themselves read.
 */

import type {BlockJsonCache} from "./caches/blockJsonCache.ts";
import type {CallResultCache} from "./caches/callCache.ts";
import type {RpcDeps} from "./deps.ts";
import type {EventHub} from "./filters/eventHub.ts";
import type {FilterManager} from "./filters/filterManager.ts";
import type {SubscriptionManager} from "./filters/subscriptions.ts";
import type {ExecutionSlots} from "./limits/executionSlots.ts";
import type {RpcOptions} from "./options.ts";

/** The dependencies that stay optional for the modules: a node without them answers without them. */
type OptionalDeps =
  | "miner"
  | "impersonation"
  | "pendingBlock"
  | "wallet"
  | "keystore"
  | "scoring"
  | "peerAdmin"
  | "logging"
  | "forkHistory"
  | "forkControls"
  | "forkNativeStorage"
  | "dappDb";

/**
 * What namespace modules pick from: the dependencies with defaults applied, the options and the
 * server's services. The transports' own dependency (`health`) is not theirs.
 */
export type ModuleDeps = Required<Omit<RpcDeps, OptionalDeps | "health">> &
  Pick<RpcDeps, OptionalDeps> & {
    options: RpcOptions;
    events: EventHub;
    filters: FilterManager;
    subscriptions: SubscriptionManager;
    /** Slots for eth_call and eth_estimateGas, per client and in all. */
    executions: ExecutionSlots;
    /** eth_call answers by block hash and call (docs/rpc.md §4.4). */
    callCache: CallResultCache;
    /** The JSON of blocks already formatted, by hash and form (docs/rpc.md §4.3). */
    blockJson: BlockJsonCache;
  };

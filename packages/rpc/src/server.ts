/**
 * The JSON-RPC server: builds the registry from the namespace modules, the event hub, polled
 * filters and subscriptions, and listens over HTTP and WebSocket as configured. Closing it waits
 * for the work of running requests, so that the node can close the database after it.
 */
import {EventEmitter} from "node:events";
import {type Logger, noopLogger} from "@xchain/utils";
import type {AnswerCacheStats} from "./caches/answerCache.ts";
import {BlockJsonCache} from "./caches/blockJsonCache.ts";
import {type CallCacheStats, CallResultCache} from "./caches/callCache.ts";
import type {PeersInfo, RpcDeps, SyncStatusSource, WireQueue} from "./deps.ts";
import {createErrorMapper} from "./errorMapping.ts";
import {EventHub} from "./filters/eventHub.ts";
import {FilterManager} from "./filters/filterManager.ts";
import {SubscriptionManager} from "./filters/subscriptions.ts";
import {Gateway} from "./gateway/gateway.ts";
import {GatewayError, GatewayErrorCode} from "./gateway/keysFile.ts";
import type {DispatchOptions} from "./jsonrpc/dispatch.ts";
import type {RequestLimits} from "./jsonrpc/principal.ts";
import {MethodRegistry, RPC_NAMESPACE} from "./jsonrpc/registry.ts";
import type {RpcEvents} from "./jsonrpc/requestEvents.ts";
import {OpenAdmission} from "./limits/admission.ts";
import {ExecutionSlots} from "./limits/executionSlots.ts";
import {IpLimits} from "./limits/ipLimits.ts";
import {nodeRequestLimits} from "./limits/requestLimits.ts";
import type {ModuleDeps} from "./moduleDeps.ts";
import {buildMethodTables} from "./modules/index.ts";
import {
  corsOriginRules,
  devMethodsDisabled,
  isModuleEnabledByDefault,
  methodsDisabledByDefault,
  type RpcModuleName,
  type RpcOptions,
} from "./options.ts";
import {ALWAYS_READY} from "./transport/health.ts";
import {createHttpTransport} from "./transport/http.ts";
import {InFlightRequests} from "./transport/inFlight.ts";
import {type Listener, listen} from "./transport/listener.ts";
import {loadTlsCredentials} from "./transport/tls.ts";
import {createWsTransport} from "./transport/ws.ts";

/** A node without p2p: no peers, not listening for them. */
export const NO_PEERS: PeersInfo = {peerCount: () => 0, peerList: () => [], listening: () => false};
/** A node without p2p: no message is ever queued. */
export const NO_WIRE_QUEUE: WireQueue = {queueSize: () => 0};
/** How long `close` waits for running requests after aborting them. */
const DRAIN_LIMIT_MS = 10_000;

/** A node that never syncs. */
export const NOT_SYNCING: SyncStatusSource = {syncStatus: () => undefined, onSyncChange: () => () => undefined};

/** The running server. */
export class RpcServer {
  private constructor(
    /** Every method and whether it answers. */
    readonly registry: MethodRegistry,
    private readonly http: Listener | undefined,
    private readonly ws: Listener | undefined,
    private readonly services: Services,
    private readonly requests: InFlightRequests,
    private readonly logger: Logger,
    /** Open WebSocket connections (0 without the WebSocket listener). */
    private readonly wsConnectionCount: () => number,
    private readonly gateway: Gateway | undefined,
    /** `request` after every answered request (the node's metrics); listeners must not throw. */
    readonly events: EventEmitter<RpcEvents>,
  ) {}

  /**
   * Builds the methods and listens; throws when an address cannot be bound, the options name an
   * unknown method, the gateway's keys file is invalid (`KeysFileError`) or the TLS files are
   * (`TlsConfigError`).
   */
  static async start(options: RpcOptions, deps: RpcDeps): Promise<RpcServer> {
    const logger = deps.logger ?? noopLogger;
    const events = new EventHub(deps.chain, deps.txpool, logger);
    const filters = new FilterManager(events, options, logger);
    const subscriptions = new SubscriptionManager(events, deps.sync ?? NOT_SYNCING, options);
    const services: Services = {
      events,
      filters,
      subscriptions,
      callCache: new CallResultCache(options.callCacheBytes),
      blockJson: new BlockJsonCache(options.blockCacheBytes),
    };
    // A block hash keys the eth_call answers: a dev control's edit changes the state it names.
    events.onStateEdited(() => services.callCache.clear());
    const moduleDeps: ModuleDeps = {
      ...deps,
      peers: deps.peers ?? NO_PEERS,
      sync: deps.sync ?? NOT_SYNCING,
      wireQueue: deps.wireQueue ?? NO_WIRE_QUEUE,
      logger,
      options,
      ...services,
      executions: new ExecutionSlots({perClient: options.maxCallsPerClient, total: options.maxConcurrentCalls}),
    };
    const requests = new InFlightRequests(options.maxInFlightResponseBytes);
    const requestEvents = new EventEmitter<RpcEvents>();
    let http: Listener | undefined;
    let gateway: Gateway | undefined;
    try {
      const tlsCredentials = await loadTlsCredentials(options.tls);
      const nodeLimits = nodeRequestLimits(options, deps.chainspec.params.name);
      gateway = options.gateway.enabled ? await openGateway(options.gateway.keysFile, logger, nodeLimits) : undefined;
      // One table for both listeners: an address's HTTP and WebSocket connections count together.
      const addressLimits = options.ipLimits.enabled && !gateway ? new IpLimits(options.ipLimits) : undefined;
      const limits = {
        ...options,
        corsOrigins: corsOriginRules(options.corsOrigins, deps.chainspec.params.name),
        requests,
        health: deps.health ?? ALWAYS_READY,
        head: () => deps.chain.head(),
        admission: gateway ?? new OpenAdmission(nodeLimits, addressLimits),
        addressLimits,
        tlsCredentials,
      };
      // rpc.discover describes the registry the tables end up in; it reads it only when called.
      const tables = buildMethodTables(moduleDeps, () => registry);
      const isModuleEnabled = (namespace: RpcModuleName) =>
        options.modules[namespace]?.enabled ?? isModuleEnabledByDefault(namespace, deps.chainspec.params.name);
      const registry = new MethodRegistry(tables, {
        isNamespaceEnabled: (namespace) => namespace === RPC_NAMESPACE || isModuleEnabled(namespace as RpcModuleName),
        enabledMethods: options.methods.enabled,
        disabledMethods: [
          ...options.methods.disabled,
          ...[
            // With the gateway on, restricted methods answer the keys granted them (docs/gateway.md).
            ...(gateway ? [] : methodsDisabledByDefault(deps.chainspec.params.name)),
            // A dev control of another namespace follows its own (docs/rpc.md §4.10).
            ...devMethodsDisabled(isModuleEnabled),
          ].filter((m) => !options.methods.enabled.includes(m)),
        ],
      });
      const dispatchOptions: DispatchOptions = {
        registry,
        maxBatchSize: options.maxBatchSize,
        maxJsonDepth: options.maxJsonDepth,
        mapError: createErrorMapper(logger),
        events: requestEvents,
      };
      if (options.http.enabled) {
        const server = createHttpTransport(dispatchOptions, limits, logger);
        http = await listen(server, options.http.host, options.http.port);
      }
      let ws: Listener | undefined;
      let wsConnectionCount = () => 0;
      if (options.ws.enabled) {
        const transport = createWsTransport(dispatchOptions, limits, logger);
        ws = await listen(transport.server, options.ws.host, options.ws.port, transport.closeClients);
        wsConnectionCount = transport.connectionCount;
      }
      return new RpcServer(registry, http, ws, services, requests, logger, wsConnectionCount, gateway, requestEvents);
    } catch (e) {
      await http?.close();
      gateway?.close();
      closeServices(services);
      throw e;
    }
  }

  /** The bound HTTP port, undefined when HTTP is disabled. */
  get httpPort(): number | undefined {
    return this.http?.port;
  }

  /** The bound WebSocket port, undefined when WebSocket is disabled. */
  get wsPort(): number | undefined {
    return this.ws?.port;
  }

  /** Open WebSocket connections. */
  get wsConnections(): number {
    return this.wsConnectionCount();
  }

  /** Subscriptions of every WebSocket connection together. */
  get subscriptionCount(): number {
    return this.services.subscriptions.count;
  }

  /** The eth_call answer cache's hits, misses and size (docs/rpc.md §4.4). */
  callCacheStats(): CallCacheStats {
    return this.services.callCache.stats();
  }

  /** The formatted-block cache's hits, misses and size (docs/rpc.md §4.3). */
  blockCacheStats(): AnswerCacheStats {
    return this.services.blockJson.stats();
  }

  /** Requests whose work has not ended (a timed-out one's included). */
  get runningRequests(): number {
    return this.requests.size;
  }

  /**
   * Stops accepting, closes every connection, aborts the work of running requests and waits for it
   * to end (at most `DRAIN_LIMIT_MS`), then ends subscriptions and filters.
   */
  async close(): Promise<void> {
    this.gateway?.close();
    await Promise.all([this.http?.close(), this.ws?.close()]);
    if (!(await this.requests.drain(DRAIN_LIMIT_MS))) {
      this.logger.warn({running: this.requests.size}, "rpc requests still running after close");
    }
    closeServices(this.services);
  }
}

function openGateway(keysFile: string | undefined, logger: Logger, node: RequestLimits): Promise<Gateway> {
  if (keysFile === undefined) {
    throw new GatewayError({code: GatewayErrorCode.KEYS_FILE_UNSET}, "rpc.gateway.enabled needs rpc.gateway.keysFile");
  }
  return Gateway.open(keysFile, logger, undefined, node);
}

/** What the server runs besides its listeners, shared by the namespace modules. */
interface Services {
  events: EventHub;
  filters: FilterManager;
  subscriptions: SubscriptionManager;
  callCache: CallResultCache;
  blockJson: BlockJsonCache;
}

function closeServices(services: Services): void {
  services.subscriptions.close();
  services.filters.close();
  services.events.close();
}

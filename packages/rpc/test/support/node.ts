/**
 * A node for RPC tests: a regtest `Chain` on a MemoryStore, the real txpool, optionally the real
 * miner and the cow accounts as dev wallet, db_*'s store on the same MemoryStore, and an `RpcServer`
 * on ephemeral loopback ports (or none: `listen: false`, for the unit tests).
 * Blocks come from the test-utils `ChainBuilder` and go through full import.
 */
import {Chain, defaultChainOptions} from "@xchain/chain";
import {type Chainspec, type GenesisParams, getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {MemoryStore} from "@xchain/db";
import {BlockExecutor} from "@xchain/execution";
import {defaultMinerOptions, ImpersonatedAccounts, Miner, type MinerOptions} from "@xchain/miner";
import {type Block, Transaction, type TransactionValues} from "@xchain/primitives";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {
  type BuildBlockOptions,
  ChainBuilder,
  cowAccounts,
  type DevAccount,
  type JsonRpcReply,
} from "@xchain/test-utils";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {
  DappDb,
  defaultRpcOptions,
  PrivateKeyWallet,
  type RpcDeps,
  type RpcOptions,
  RpcServer,
} from "../../src/index.ts";

export const regtest: Chainspec = getChainspec("regtest");

/** The funded regtest accounts. */
export const cows: DevAccount[] = cowAccounts();

/** A JSON-RPC response as the tests read it. */
export type Reply = JsonRpcReply;

/** What a test node is made of. */
export interface TestNodeOptions {
  rpc?: Partial<RpcOptions>;
  /** The cow accounts as dev wallet (default true). */
  wallet?: boolean;
  /** Run the real miner with these options over regtest's defaults (built-in miner off unless said). */
  miner?: Partial<MinerOptions>;
  /** The chainspec RPC is told (module defaults); the chain itself is always regtest. */
  rpcChainspec?: Chainspec;
  /** Wraps the node's executor before RPC gets it (a test watching what RPC asks of it). */
  wrapExecutor?: (executor: BlockExecutor) => RpcDeps["executor"];
  deps?: Partial<RpcDeps>;
  /** Default: regtest's (the cow accounts funded). */
  genesis?: GenesisParams;
  /** false: no HTTP or WebSocket listener, for unit tests that read the registry or dispatch in-process. */
  listen?: boolean;
  /** Opens the node's chain on its store in place of a regtest chain from `genesis` (a forked chain). */
  openChain?: (store: MemoryStore) => Promise<OpenedChain>;
}

/** A node's chain, the state it reads and the executor that runs its blocks and calls. */
export interface OpenedChain {
  chain: Chain;
  state: StateDatabase;
  executor: BlockExecutor;
}

/** A running node and helpers to talk to it. */
export class TestNode {
  private constructor(
    readonly chain: Chain,
    readonly builder: ChainBuilder,
    readonly txpool: TxPool,
    readonly miner: Miner | undefined,
    readonly server: RpcServer,
  ) {}

  static async start(options: TestNodeOptions = {}): Promise<TestNode> {
    const store = new MemoryStore();
    const genesis = options.genesis ?? regtestGenesis;
    const {chain, state, executor} = await (options.openChain ?? ((s) => openRegtest(s, genesis)))(store);
    // The dev controls as the miner's option says (regtest: on), whether or not a miner runs.
    const impersonation = new ImpersonatedAccounts({devControls: options.miner?.devControls ?? true});
    const txpool = new TxPool(defaultTxPoolOptions, {chainspec: regtest, chain, impersonation});
    const miner = options.miner
      ? new Miner(
          {...defaultMinerOptions(regtest), enabled: false, ...options.miner},
          {chain, txpool, assembler: executor, chainspec: regtest, pendingState: state},
        )
      : undefined;
    const builder = await ChainBuilder.create({
      chainspec: regtest,
      genesis,
      difficulty: (header, parent) => calculateDifficulty(header, parent, regtest),
    });
    const listening = options.listen === false ? {enabled: false} : {};
    const rpcOptions: RpcOptions = {
      ...defaultRpcOptions,
      ...options.rpc,
      http: {...defaultRpcOptions.http, port: 0, ...options.rpc?.http, ...listening},
      ws: {...defaultRpcOptions.ws, port: 0, ...options.rpc?.ws, ...listening},
    };
    const server = await RpcServer.start(rpcOptions, {
      chainspec: options.rpcChainspec ?? regtest,
      chain,
      txpool,
      miner,
      impersonation,
      pendingBlock: miner,
      executor: options.wrapExecutor?.(executor) ?? executor,
      wallet:
        options.wallet === false
          ? undefined
          : new PrivateKeyWallet(
              cows.map((c) => c.privateKey),
              regtest.params.chainId,
            ),
      clientVersion: "xchain/0.1.0/test/node20",
      dappDb: await DappDb.open(rpcOptions.db, {store}),
      ...options.deps,
    });
    return new TestNode(chain, builder, txpool, miner, server);
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.httpPort}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.server.wsPort}`;
  }

  /** POSTs a raw body; returns the status, headers and text. */
  async post(
    body: string,
    headers: Record<string, string> = {},
  ): Promise<{status: number; headers: Headers; text: string}> {
    const res = await fetch(this.url, {
      method: "POST",
      headers: {"content-type": "application/json", ...headers},
      body,
    });
    return {status: res.status, headers: res.headers, text: await res.text()};
  }

  /** One request over HTTP; the whole response. */
  async call(method: string, params: unknown[] = []): Promise<Reply> {
    const {text} = await this.post(JSON.stringify({jsonrpc: "2.0", id: 1, method, params}));
    return JSON.parse(text) as Reply;
  }

  /** The result of a request; throws on an error response. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read results of every shape
  async result(method: string, params: unknown[] = []): Promise<any> {
    const reply = await this.call(method, params);
    if (reply.error) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    return reply.result;
  }

  /** The error of a request; throws on success. */
  async error(method: string, params: unknown[] = []): Promise<NonNullable<Reply["error"]>> {
    const reply = await this.call(method, params);
    if (!reply.error) throw new Error(`${method}: expected an error, got ${JSON.stringify(reply.result)}`);
    return reply.error;
  }

  /** Builds a block on the builder's tip and imports it. */
  async mine(options: BuildBlockOptions = {}): Promise<Block> {
    const block = await this.builder.buildBlock(options);
    const result = await this.chain.importBlock(block.encode());
    if (result.kind !== "IMPORTED_BEST" && result.kind !== "IMPORTED_NOT_BEST") {
      throw new Error(`import: ${result.kind}`);
    }
    return block;
  }

  async close(): Promise<void> {
    await this.server.close();
    await this.miner?.close();
    await this.txpool.close();
  }
}

async function openRegtest(store: MemoryStore, genesis: GenesisParams): Promise<OpenedChain> {
  const state = new StateDatabase(defaultStateOptions, {store});
  const chain = await Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis, state});
  return {chain, state, executor: new BlockExecutor({}, {chainspec: regtest, state})};
}

/** A transaction signed by `from` with regtest's chain id; gasPrice 0 and gasLimit 21,000 unless given. */
export function signTx(from: DevAccount, values: Partial<TransactionValues> & {nonce: bigint}): Transaction {
  return Transaction.sign(
    {gasPrice: 0n, gasLimit: 21_000n, value: 0n, data: new Uint8Array(0), to: undefined, ...values},
    from.privateKey,
    regtest.params.chainId,
  );
}

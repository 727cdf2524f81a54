/** Shared helpers of the miner tests: a regtest chain on a MemoryStore, a small pool, a miner, Bitcoin blocks. */
import {Chain, type ChainOptions, defaultChainOptions} from "@xchain/chain";
import {type Chainspec, getChainspec, regtestGenesis} from "@xchain/chainspec";
import {DatabaseError, DatabaseErrorCode, type KeyValueStore, MemoryStore, type WriteBatch} from "@xchain/db";
import {BlockExecutor, type ExecuteBlockInput} from "@xchain/execution";
import {buildFakeBitcoinBlock, grindNonce, serializeBitcoinBlock} from "@xchain/merged-mining";
import {publicKeyToAddress, Transaction, type TransactionValues} from "@xchain/primitives";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {cowAccounts, type DevAccount} from "@xchain/test-utils";
import type {TxPoolSnapshot} from "@xchain/txpool";
import {bytesToHex, equalBytes, keccak256, type Logger, noopLogger, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {afterEach} from "vitest";
import {defaultMinerOptions, Miner, type MinerOptions, type MinerTxPool} from "../src/index.ts";

export const regtest: Chainspec = getChainspec("regtest");
export const cows: DevAccount[] = cowAccounts();

/**
 * The pool's contract as the miner sees it: executable transactions by gas price (highest first),
 * nonce order per sender; included transactions leave on `newHead`.
 */
export class TestPool implements MinerTxPool {
  private readonly txs = new Map<string, Transaction>();
  private readonly listeners = new Set<(tx: Transaction) => void>();
  private changes = 0;

  constructor(chain: Chain) {
    chain.events.on("newHead", (event) => {
      for (const block of event.added) for (const tx of block.transactions) this.txs.delete(bytesToHex(tx.hash()));
      this.changes++;
    });
  }

  add(...txs: Transaction[]): void {
    for (const tx of txs) this.txs.set(bytesToHex(tx.hash()), tx);
    this.changes++;
    for (const tx of txs) for (const listener of this.listeners) listener(tx);
  }

  get size(): number {
    return this.txs.size;
  }

  pendingForBlock(): Transaction[] {
    const bySender = new Map<string, Transaction[]>();
    for (const tx of this.txs.values()) {
      const key = bytesToHex(tx.sender());
      bySender.set(key, [...(bySender.get(key) ?? []), tx]);
    }
    const queues = [...bySender.values()].map((q) => q.sort((a, b) => (a.nonce < b.nonce ? -1 : 1)));
    const ordered: Transaction[] = [];
    for (;;) {
      const best = queues.filter((q) => q.length > 0).sort((a, b) => Number(b[0]!.gasPrice - a[0]!.gasPrice))[0];
      if (!best) return ordered;
      ordered.push(best.shift()!);
    }
  }

  onPending(listener: (tx: Transaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  revision(): number {
    return this.changes;
  }

  snapshot(): TxPoolSnapshot {
    return {transactions: [...this.txs.values()]};
  }

  async restore(snapshot: TxPoolSnapshot): Promise<number> {
    this.txs.clear();
    this.add(...snapshot.transactions);
    return snapshot.transactions.length;
  }

  async drop(hash: Uint8Array): Promise<boolean> {
    this.changes++;
    return this.txs.delete(bytesToHex(hash));
  }

  async dropSender(sender: Uint8Array): Promise<number> {
    const theirs = [...this.txs.values()].filter((tx) => equalBytes(tx.sender(), sender));
    for (const tx of theirs) await this.drop(tx.hash());
    return theirs.length;
  }

  async dropAll(): Promise<number> {
    const count = this.txs.size;
    this.txs.clear();
    this.changes++;
    return count;
  }
}

/** A miner on a fresh regtest chain, with its pool and the background errors it reported. */
export interface TestMiner<P extends MinerTxPool> {
  miner: Miner;
  chain: Chain;
  pool: P;
  errors: unknown[];
  /** The messages it logged at info. */
  infos: string[];
  options: MinerOptions;
  /** How many blocks the chain's import has executed (a block imported with its template's execution is not). */
  importExecutions: () => number;
  /** How many blocks the miner has assembled (templates and pending blocks built). */
  assemblies: () => number;
}

/** What a test can change besides the options: the clock, and the pool (default a `TestPool`). */
export interface TestSetup<P extends MinerTxPool> {
  now?: () => number;
  pool?: (chain: Chain) => P;
  /** The node's sync standing (`MinerModules.notSyncedReason`). */
  notSyncedReason?: () => string | undefined;
  /** The chain's store (default a fresh `MemoryStore`). */
  store?: KeyValueStore;
  /** The states the chain keeps (default `defaultChainOptions`'). */
  retention?: ChainOptions["retention"];
}

/** A store whose writes fail while `full` is set, as LevelStore's on a full disk. */
export class FillingStore extends MemoryStore {
  full = false;

  override async write(batch: WriteBatch): Promise<void> {
    if (this.full) throw new DatabaseError({code: DatabaseErrorCode.DISK_FULL, path: "/db", reason: "no space"});
    return super.write(batch);
  }
}

const miners: Miner[] = [];

afterEach(async () => {
  for (const miner of miners.splice(0)) await miner.close();
});

/** Opens a chain and a miner (closed after each test); the built-in miner is off unless `enabled`. */
export async function openMiner<P extends MinerTxPool = TestPool>(
  overrides: Partial<MinerOptions> = {},
  setup: TestSetup<P> = {},
): Promise<TestMiner<P>> {
  const store = setup.store ?? new MemoryStore();
  // The chain's state (RPC's, where the pending block is staged) and block assembly's, as in the node;
  // both record preimages as a dev node's do (anvil_dumpState).
  const stateOptions = {...defaultStateOptions, recordPreimages: true};
  const state = new StateDatabase(stateOptions, {store});
  const importer = new BlockExecutor({}, {chainspec: regtest, state});
  let importExecutions = 0;
  const executor = {
    execute: (input: ExecuteBlockInput) => {
      importExecutions++;
      return importer.execute(input);
    },
  };
  const chainOptions = {...defaultChainOptions, retention: setup.retention ?? defaultChainOptions.retention};
  const chain = await Chain.open(chainOptions, {
    store,
    chainspec: regtest,
    genesis: regtestGenesis,
    state,
    executor,
  });
  const pool = setup.pool ? setup.pool(chain) : (new TestPool(chain) as MinerTxPool as P);
  const errors: unknown[] = [];
  const infos: string[] = [];
  const options = {...defaultMinerOptions(regtest), enabled: false, ...overrides};
  const assemblyExecutor = new BlockExecutor({}, {chainspec: regtest, state: new StateDatabase(stateOptions, {store})});
  let assemblies = 0;
  const assembler = {
    assembleBlock: (input: Parameters<BlockExecutor["assembleBlock"]>[0]) => {
      assemblies++;
      return assemblyExecutor.assembleBlock(input);
    },
  };
  // The miner logs a failure of background work at error level with the error as `err`.
  const logger: Logger = {
    ...noopLogger,
    error: (context: object | string) => {
      errors.push(typeof context === "string" ? context : (context as {err?: unknown}).err);
    },
    info: (context: object | string, message?: string) => {
      infos.push(typeof context === "string" ? context : (message ?? ""));
    },
  };
  const modules = {
    chain,
    txpool: pool,
    assembler,
    chainspec: regtest,
    pendingState: state,
    probeState: state,
    stateDumps: state,
    logger,
    notSyncedReason: setup.notSyncedReason,
  };
  const miner = new Miner(options, setup.now ? {...modules, now: setup.now} : modules);
  miners.push(miner);
  return {
    miner,
    chain,
    pool,
    errors,
    infos,
    options,
    importExecutions: () => importExecutions,
    assemblies: () => assemblies,
  };
}

/** A signed regtest transfer; gasPrice 0 and gasLimit 21,000 unless given. */
export function transfer(from: DevAccount, values: Partial<TransactionValues> & {nonce: bigint}): Transaction {
  return Transaction.sign(
    {gasPrice: 0n, gasLimit: 21_000n, value: 1n, data: new Uint8Array(0), to: cows[9]!.address, ...values},
    from.privateKey,
    regtest.params.chainId,
  );
}

/** An account whose key is keccak-256 of `seed` (like the cow accounts). */
export function account(seed: string): DevAccount {
  const privateKey = keccak256(utf8ToBytes(seed));
  return {seed, privateKey, address: publicKeyToAddress(publicKeyOf(privateKey))};
}

/** A fake Bitcoin block for `hashForMergedMining` with its nonce ground to `target`: [header, coinbase]. */
export function solve(hashForMergedMining: Uint8Array, target: bigint): {header: Uint8Array; coinbase: Uint8Array} {
  const fake = buildFakeBitcoinBlock({hashForMergedMining, time: 1});
  const header = grindNonce(fake.header, target);
  if (!header) throw new Error("no nonce");
  return {header, coinbase: fake.coinbase};
}

/** The full serialized Bitcoin block of `solve`. */
export function solvedBlock(hashForMergedMining: Uint8Array, target: bigint): Uint8Array {
  const {header, coinbase} = solve(hashForMergedMining, target);
  return serializeBitcoinBlock(header, [coinbase]);
}

/** Resolves once `condition` holds, polling every 10 ms (rejects after `timeoutMs`). */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Whether `work` settles before the event loop's next turn: "at once", with no timer waited for.
 * A claim without a clock, so a loaded machine cannot break it.
 */
export async function settlesAtOnce(work: Promise<unknown>): Promise<boolean> {
  return Promise.race([work.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
}

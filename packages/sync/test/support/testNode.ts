/**
 * Nodes for the sync tests: a regtest `Chain` on a MemoryStore with the real txpool, attached to a
 * `FakeHub`, optionally with a `SyncManager` and a `Relay`. Blocks come from one shared
 * `ChainBuilder` (real merged-mining proofs) and are imported through full validation.
 */
import {Chain, type ChainOptions, defaultChainOptions} from "@xchain/chain";
import {type Chainspec, getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {MemoryStore} from "@xchain/db";
import type {PeerId} from "@xchain/p2p";
import {type Block, Transaction, type TransactionValues} from "@xchain/primitives";
import {ChainBuilder, cowAccounts, type DevAccount} from "@xchain/test-utils";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {bytesToHex} from "@xchain/utils";
import {
  defaultRelayOptions,
  defaultSyncOptions,
  Relay,
  SyncManager,
  type SyncModules,
  type SyncOptions,
} from "../../src/index.ts";
import {FakeHub, type FakeNetwork} from "./fakeNetwork.ts";

export const regtest: Chainspec = getChainspec("regtest");
export const cows: DevAccount[] = cowAccounts();

/** A builder for regtest blocks. */
export function newBuilder(): Promise<ChainBuilder> {
  return ChainBuilder.create({
    chainspec: regtest,
    genesis: regtestGenesis,
    difficulty: (header, parent) => calculateDifficulty(header, parent, regtest),
  });
}

/** A transfer signed by `from` with regtest's chain id. */
export function transfer(from: DevAccount, nonce: bigint, values: Partial<TransactionValues> = {}): Transaction {
  return Transaction.sign(
    {nonce, gasPrice: 0n, gasLimit: 21_000n, value: 1n, data: new Uint8Array(0), to: cows[5]?.address, ...values},
    from.privateKey,
    regtest.params.chainId,
  );
}

/** A hub for regtest nodes. */
export function newHub(): FakeHub {
  return new FakeHub(regtest);
}

/** One node: chain, txpool, network, and its sync manager and relay once asked for. */
export class TestNode {
  sync: SyncManager | undefined;
  relay: Relay | undefined;

  private constructor(
    readonly id: PeerId,
    readonly store: MemoryStore,
    readonly chain: Chain,
    readonly txpool: TxPool,
    readonly network: FakeNetwork,
  ) {}

  /**
   * A node over `store` (a fresh one unless given: pass the old one to restart a node), keeping the
   * states `retention` says (default: the chain's default window).
   */
  static async create(
    hub: FakeHub,
    id: PeerId,
    store = new MemoryStore(),
    retention: ChainOptions["retention"] = defaultChainOptions.retention,
  ): Promise<TestNode> {
    const chain = await Chain.open(
      {...defaultChainOptions, retention},
      {store, chainspec: regtest, genesis: regtestGenesis},
    );
    // Impersonated transactions admitted from every sender, as a dev node auto-impersonating would.
    const impersonation = {enabled: true, allows: () => true};
    const txpool = new TxPool(defaultTxPoolOptions, {chainspec: regtest, chain, impersonation});
    return new TestNode(id, store, chain, txpool, hub.node(id, chain));
  }

  /** Imports blocks (each must be valid). */
  async importBlocks(blocks: readonly Block[]): Promise<void> {
    for (const block of blocks) {
      const result = await this.chain.importBlock(block);
      if (result.kind === "INVALID_BLOCK") throw result.error;
      if (result.kind === "NO_PARENT") throw new Error(`block ${block.header.number}: no parent`);
    }
  }

  /** Starts a sync manager with these options over the defaults (and a sender recovery, if given). */
  startSync(options: Partial<SyncOptions> = {}, modules: Pick<SyncModules, "senderRecovery"> = {}): SyncManager {
    const sync = new SyncManager(
      {...defaultSyncOptions, ...options},
      {network: this.network, chainspec: regtest, chain: this.chain, txpool: this.txpool, ...modules},
    );
    this.sync = sync;
    sync.start();
    return sync;
  }

  /** Starts a relay (wired to the sync manager when there is one, and to a sender recovery, if given). */
  startRelay(modules: Pick<SyncModules, "senderRecovery"> = {}): Relay {
    const relay = new Relay(defaultRelayOptions, {
      network: this.network,
      chainspec: regtest,
      chain: this.chain,
      txpool: this.txpool,
      sync: this.sync,
      ...modules,
    });
    this.relay = relay;
    relay.start();
    return relay;
  }

  headHex(): string {
    return bytesToHex(this.chain.head().hash);
  }

  async close(): Promise<void> {
    this.relay?.stop();
    await this.sync?.stop();
    await this.txpool.close();
  }
}

/** Resolves once `condition` holds (polled), or fails after `timeoutMs` with `what`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Hex hash of a block. */
export function hex(block: Block): string {
  return bytesToHex(block.hash());
}

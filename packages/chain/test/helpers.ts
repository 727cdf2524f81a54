/** Shared helpers of the chain tests: a chain on a LevelStore in a tmp dir, a builder, transactions. */
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {type Chainspec, type GenesisParams, getChainspec, regtestGenesis} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {Bucket, type KeyValueStore, LevelStore} from "@xchain/db";
import {transactionsRoot} from "@xchain/execution";
import {type Block, type BlockHeader, type HeaderValues, Transaction, type TransactionValues} from "@xchain/primitives";
import {ChainBuilder, cowAccounts, type DevAccount, headerValues} from "@xchain/test-utils";
import {bytesToHex, keccak256} from "@xchain/utils";
import {Chain, type ChainModules, defaultChainOptions} from "../src/index.ts";

export const regtest: Chainspec = getChainspec("regtest");

/** An open chain on a fresh LevelStore, and how to close and reopen it. */
export interface TestChain {
  chain: Chain;
  store: LevelStore;
  dir: string;
}

const cleanups: (() => Promise<void>)[] = [];

/** Closes every store and removes every directory the helpers opened (call in afterEach). */
export async function cleanup(): Promise<void> {
  for (const fn of cleanups.splice(0).reverse()) await fn();
}

/** A chain on a new temporary LevelStore. */
export async function openChain(
  options: Partial<Omit<ChainModules, "store">> = {},
  dir = mkdtempSync(join(tmpdir(), "xchain-chain-")),
): Promise<TestChain> {
  const store = await openTempStore(dir);
  const chain = await Chain.open(defaultChainOptions, {chainspec: regtest, genesis: regtestGenesis, ...options, store});
  return {chain, store, dir};
}

/** A LevelStore in `dir` (default a new temporary directory), closed and removed by `cleanup`. */
export async function openTempStore(dir = mkdtempSync(join(tmpdir(), "xchain-chain-"))): Promise<LevelStore> {
  const store = await LevelStore.open(dir);
  cleanups.push(async () => {
    await store.close().catch(() => undefined);
    rmSync(dir, {recursive: true, force: true});
  });
  return store;
}

/** A builder for the same network as `openChain`'s. */
export function newBuilder(
  chainspec: Chainspec = regtest,
  genesis: GenesisParams = regtestGenesis,
): Promise<ChainBuilder> {
  return ChainBuilder.create({chainspec, genesis, difficulty: (h, p) => calculateDifficulty(h, p, chainspec)});
}

/** The funded regtest accounts. */
export const cows: DevAccount[] = cowAccounts();

/** A signed transaction from `from` with regtest's chain id; gasPrice 0 and gasLimit 21,000 unless given. */
export function signTx(from: DevAccount, values: Partial<TransactionValues> & {nonce: bigint}): Transaction {
  return Transaction.sign(
    {gasPrice: 0n, gasLimit: 21_000n, value: 0n, data: new Uint8Array(0), to: undefined, ...values},
    from.privateKey,
    regtest.params.chainId,
  );
}

/** A count and a digest of every entry of every bucket: equal before and after means nothing was written. */
export async function snapshot(store: KeyValueStore): Promise<{entries: number; digest: string}> {
  let entries = 0;
  const parts: string[] = [];
  for (const bucket of Object.values(Bucket).filter((b): b is Bucket => typeof b === "number")) {
    for await (const [key, value] of store.entries(bucket)) {
      entries++;
      parts.push(`${bucket}:${bytesToHex(key)}=${bytesToHex(value)}`);
    }
  }
  return {entries, digest: bytesToHex(keccak256(new TextEncoder().encode(parts.join("\n"))))};
}

/**
 * A copy of a built block with some header values changed and optionally another body, resealed
 * with a valid proof of work so that import reaches the rule under test; txTrieRoot follows a new
 * transaction list unless it is among the changes.
 */
export async function alterBlock(
  builder: ChainBuilder,
  block: Block,
  changes: Partial<HeaderValues>,
  body: {transactions?: readonly Transaction[]; uncles?: readonly BlockHeader[]} = {},
): Promise<Block> {
  const transactions = body.transactions ?? block.transactions;
  const txTrieRoot = body.transactions ? await transactionsRoot(transactions) : block.header.txTrieRoot;
  return builder.sealBlock(
    {...headerValues(block.header), txTrieRoot, ...changes},
    transactions,
    body.uncles ?? block.uncles,
  );
}

/** `tx` with an r that is no curve point's x coordinate, so that no sender can be recovered. */
export function withUnrecoverableSignature(tx: Transaction): Transaction {
  for (let r = 1; ; r++) {
    const fields = [...tx.receivedFields];
    fields[7] = Uint8Array.of(r);
    const candidate = Transaction.fromRlpItem(fields, {chainId: regtest.params.chainId});
    try {
      candidate.sender();
    } catch {
      return candidate;
    }
  }
}

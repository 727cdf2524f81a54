/** Shared helpers of the txpool tests: a real chain on a MemoryStore, a builder for it, accounts and transactions. */
import {Chain, defaultChainOptions} from "@xchain/chain";
import {
  type Chainspec,
  type GenesisAllocAccount,
  type GenesisParams,
  getChainspec,
  regtestGenesis,
} from "@xchain/chainspec";
import {calculateDifficulty} from "@xchain/consensus";
import {MemoryStore} from "@xchain/db";
import {publicKeyToAddress, Transaction, type TransactionValues} from "@xchain/primitives";
import {ChainBuilder, cowAccounts, type DevAccount} from "@xchain/test-utils";
import {bytesToHex, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {expect} from "vitest";
import {
  defaultTxPoolOptions,
  type ImpersonationPolicy,
  TxPool,
  TxPoolError,
  type TxPoolModules,
  type TxPoolOptions,
} from "../src/index.ts";

export const regtest: Chainspec = getChainspec("regtest");

/** The funded regtest accounts. */
export const cows: DevAccount[] = cowAccounts();

/** An account whose private key is keccak-256 of `seed`. */
export function account(seed: string): DevAccount {
  const privateKey = keccak256(utf8ToBytes(seed));
  return {seed, privateKey, address: publicKeyToAddress(publicKeyOf(privateKey))};
}

/** What a test chain starts from. */
export interface TestSetup {
  /** The genesis minimumGasPrice (default 0, as regtest's). */
  minimumGasPrice?: bigint;
  /** Accounts funded besides the cows. */
  alloc?: GenesisAllocAccount[];
  options?: Partial<TxPoolOptions>;
  nowMs?: () => number;
  /** Which senders impersonated transactions may come from (none without it). */
  impersonation?: ImpersonationPolicy;
}

/** A pool on a real chain, and a builder for the same genesis. */
export interface TestPool {
  pool: TxPool;
  chain: Chain;
  builder: ChainBuilder;
}

/** A regtest chain on a MemoryStore with the setup's genesis, a pool following it, and a builder. */
export async function openPool(setup: TestSetup = {}): Promise<TestPool> {
  const genesis: GenesisParams = {
    header: {...regtestGenesis.header, minimumGasPrice: setup.minimumGasPrice ?? 0n},
    alloc: [...regtestGenesis.alloc, ...(setup.alloc ?? [])],
  };
  const chain = await Chain.open(defaultChainOptions, {store: new MemoryStore(), chainspec: regtest, genesis});
  const builder = await ChainBuilder.create({
    chainspec: regtest,
    genesis,
    difficulty: (h, p) => calculateDifficulty(h, p, regtest),
  });
  const modules: TxPoolModules = {
    chainspec: regtest,
    chain,
    ...(setup.nowMs && {nowMs: setup.nowMs}),
    ...(setup.impersonation && {impersonation: setup.impersonation}),
  };
  const pool = new TxPool({...defaultTxPoolOptions, ...setup.options}, modules);
  return {pool, chain, builder};
}

/** A transfer signed by `from` for regtest: to cow9, value 0, gasLimit 21,000, gasPrice 0 unless given. */
export function signTx(from: DevAccount, values: Partial<TransactionValues> & {nonce: bigint}): Transaction {
  return Transaction.sign(
    {gasPrice: 0n, gasLimit: 21_000n, value: 0n, data: new Uint8Array(0), to: cows[9]!.address, ...values},
    from.privateKey,
    regtest.params.chainId,
  );
}

/** Hex hashes, to compare lists of transactions. */
export function hashes(txs: readonly Transaction[]): string[] {
  return txs.map((tx) => bytesToHex(tx.hash()));
}

/** The refusal of `attempt`, or a failure if it was admitted. */
export async function refusal(attempt: Promise<unknown>): Promise<TxPoolError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TxPoolError);
  return error as TxPoolError;
}

/**
 * Block-level rules: fees to REMASC, REMASC's pool after maturity (the payouts: remasc.test.ts), the REMASC
 * transaction's nonce, invalid transactions (each with its code) in execute() and skipped by
 * assembleBlock(), roots and determinism.
 */
import {getChainspec} from "@xchain/chainspec";
import {
  createRemascTransaction,
  encodeRlp,
  REMASC_ADDRESS,
  REMASC_SENDER,
  type Transaction,
  TransactionField,
} from "@xchain/primitives";
import {bytesToBigInt} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  BlockExecutionError,
  BlockExecutionErrorCode,
  orderedTrieRoot,
  REMASC_STORAGE_KEYS,
  TransactionInvalidCode,
  type TransactionInvalidError,
} from "../src/index.ts";
import {ETHER, Signer} from "./support/accounts.ts";
import {type BlockOptions, TestChain} from "./support/chain.ts";

const chainspec = getChainspec("regtest");
const MATURITY = chainspec.params.remascMaturity;
const recipient = (i: number) => Uint8Array.from({length: 20}, (_, j) => (j === 0 ? 0xee : i));

async function funded(...signers: Signer[]): Promise<TestChain> {
  return TestChain.create(
    chainspec,
    signers.map((s) => ({address: s.address, balance: ETHER})),
  );
}

async function executeError(
  chain: TestChain,
  txs: Transaction[],
  options: BlockOptions = {},
): Promise<BlockExecutionError> {
  const error = await chain.execute(txs, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BlockExecutionError);
  return error as BlockExecutionError;
}

describe("fees and REMASC", () => {
  it("credits gasUsed × gasPrice to REMASC and charges the sender exactly that plus the value", async () => {
    const alice = new Signer("alice");
    const chain = await funded(alice);
    const block = await chain.execute([alice.sign({to: recipient(1), value: 5n, gasPrice: 7n, gasLimit: 30_000n})]);
    expect(block.result?.paidFees).toBe(21_000n * 7n);
    expect(block.result?.outcomes[0]?.fee).toBe(21_000n * 7n);
    expect((await chain.account(REMASC_ADDRESS))?.balance).toBe(21_000n * 7n);
    expect((await chain.account(alice.address))?.balance).toBe(ETHER - 21_000n * 7n - 5n);
    expect((await chain.account(recipient(1)))?.balance).toBe(5n);
    expect((await chain.account(block.coinbase))?.balance ?? 0n).toBe(0n);
  });

  it("adds a block's fees to REMASC's pool when the block `maturity` later is executed, paying nothing yet", async () => {
    const alice = new Signer("alice");
    const chain = await funded(alice);
    const miner = new Uint8Array(20).fill(0xab);
    await chain.execute([alice.sign({to: recipient(1), gasPrice: 3n, gasLimit: 21_000n})], {coinbase: miner});
    const fees = 21_000n * 3n;
    for (let n = 2; n <= MATURITY; n++) await chain.execute([]);
    expect(await chain.storage(REMASC_ADDRESS, REMASC_STORAGE_KEYS.rewardBalance)).toEqual(new Uint8Array(0));
    await chain.execute([]);
    expect(chain.head.number).toBe(MATURITY + 1);
    // Block 1 < syntheticSpan: its fees join the pool and nothing is paid (rskj pays from block 15 on).
    expect(bytesToBigInt(await chain.storage(REMASC_ADDRESS, REMASC_STORAGE_KEYS.rewardBalance))).toBe(fees);
    expect(await chain.account(miner)).toBeUndefined();
    expect((await chain.account(REMASC_ADDRESS))?.balance).toBe(fees);
  });

  it("increments the zero address's nonce, so the next REMASC transaction's nonce = number − 1 is valid", async () => {
    const chain = await funded();
    await chain.execute([]);
    await chain.execute([]);
    expect((await chain.account(REMASC_SENDER))?.nonce).toBe(2n);
    const receipt = chain.head.result?.receipts[0];
    expect([receipt?.success, receipt?.gasUsed]).toEqual([true, 0n]);
  });

  it("rejects a block whose last transaction is not REMASC, or whose REMASC nonce is wrong", async () => {
    const alice = new Signer("alice");
    const chain = await funded(alice);
    const block = chain.context();
    const tx = alice.sign({to: recipient(1), gasLimit: 21_000n});
    const input = {block, parentStateRoot: chain.head.stateRoot, chain: chain.view()};
    const missing = await chain.executor.execute({...input, transactions: [tx]}).catch((e: unknown) => e);
    expect((missing as BlockExecutionError).type).toEqual({
      code: BlockExecutionErrorCode.MISSING_REMASC,
      transactionCount: 1,
    });
    const wrongNonce = await chain.executor
      .execute({...input, transactions: [createRemascTransaction(5)]})
      .catch((e: unknown) => e);
    expect((wrongNonce as BlockExecutionError).type).toEqual({
      code: BlockExecutionErrorCode.INVALID_TRANSACTION,
      index: 0,
      reason: TransactionInvalidCode.NONCE_MISMATCH,
    });
  });
});

describe("invalid transactions", () => {
  const mgp = 10n;
  const cases: [string, TransactionInvalidCode, (s: Signer) => Transaction, BlockOptions?][] = [
    [
      "bad nonce",
      TransactionInvalidCode.NONCE_MISMATCH,
      (s) => s.sign({nonce: 5n, to: recipient(2), gasPrice: mgp, gasLimit: 21_000n}),
    ],
    [
      "insufficient balance",
      TransactionInvalidCode.INSUFFICIENT_BALANCE,
      (s) => s.sign({to: recipient(2), value: ETHER, gasPrice: mgp, gasLimit: 21_000n}),
    ],
    [
      "gas price below mgp",
      TransactionInvalidCode.GAS_PRICE_BELOW_MINIMUM,
      (s) => s.sign({to: recipient(2), gasPrice: mgp - 1n, gasLimit: 21_000n}),
    ],
    [
      "gas price above 100 × mgp",
      TransactionInvalidCode.GAS_PRICE_ABOVE_CAP,
      (s) => s.sign({to: recipient(2), gasPrice: 100n * mgp + 1n, gasLimit: 21_000n}),
    ],
    [
      "gas above the block limit",
      TransactionInvalidCode.BLOCK_GAS_LIMIT_EXCEEDED,
      (s) => s.sign({to: recipient(2), gasPrice: mgp, gasLimit: 6_800_001n}),
    ],
    [
      "gas below intrinsic",
      TransactionInvalidCode.INTRINSIC_GAS_TOO_LOW,
      (s) => s.sign({to: recipient(2), gasPrice: mgp, gasLimit: 20_999n}),
    ],
    [
      "initcode above 49,152 bytes",
      TransactionInvalidCode.INITCODE_TOO_LARGE,
      (s) => s.sign({data: new Uint8Array(49_153), gasPrice: mgp, gasLimit: 6_000_000n}),
    ],
    [
      "a REMASC transaction before the last",
      TransactionInvalidCode.UNEXPECTED_REMASC,
      () => createRemascTransaction(1),
    ],
  ];

  for (const [name, code, make] of cases) {
    it(`${name}: execute() fails with ${code} at its index; assembleBlock() skips it`, async () => {
      const alice = new Signer("alice");
      const bob = new Signer("bob");
      const chain = await funded(alice, bob);
      const good = bob.sign({to: recipient(3), gasPrice: mgp, gasLimit: 21_000n});
      const bad = make(alice);
      const error = await executeError(chain, [good, bad], {minimumGasPrice: mgp});
      expect(error.type).toEqual({code: BlockExecutionErrorCode.INVALID_TRANSACTION, index: 1, reason: code});
      expect(error.transactionError?.code).toBe(code);

      const assembled = await chain.assemble([bad, good], {minimumGasPrice: mgp});
      expect(assembled.transactions).toHaveLength(2);
      expect(assembled.transactions[0]).toBe(good);
      expect(assembled.skipped.map((s) => [s.transaction, s.error.code])).toEqual([[bad, code]]);
      const skipped = assembled.skipped[0] as {reason: string; error: TransactionInvalidError};
      expect(skipped.reason).toBe(skipped.error.message);
    });
  }

  it("the block gas limit counts the gas used so far", async () => {
    const alice = new Signer("alice");
    const chain = await funded(alice);
    const txs = [0, 1].map(() => alice.sign({to: recipient(4), gasLimit: 30_000n}));
    const error = await executeError(chain, txs, {gasLimit: 50_000n});
    expect(error.type).toMatchObject({index: 1, reason: TransactionInvalidCode.BLOCK_GAS_LIMIT_EXCEEDED});
    alice.nonce = 0n;
    const fits = [0, 1].map(() => alice.sign({to: recipient(4), gasLimit: 29_000n}));
    const block = await chain.execute(fits, {gasLimit: 50_000n});
    expect(block.result?.gasUsed).toBe(42_000n);
  });
});

describe("roots, receipts and determinism", () => {
  it("computes ordered-trie roots over the received encodings and 6-field receipts", async () => {
    const alice = new Signer("alice");
    const chain = await funded(alice);
    const txs = [1, 2, 3].map((i) => alice.sign({to: recipient(i), value: BigInt(i), gasLimit: 21_000n}));
    const block = await chain.execute(txs);
    const result = block.result!;
    const all = [...txs, createRemascTransaction(1)];
    expect(result.transactionsRoot).toEqual(orderedTrieRoot(all.map((tx) => encodeRlp([...tx.receivedFields]))));
    expect(result.receiptsRoot).toEqual(orderedTrieRoot(result.receipts.map((r) => r.encode())));
    expect(result.receipts.map((r) => r.cumulativeGas)).toEqual([21_000n, 42_000n, 63_000n, 63_000n]);
    expect(result.gasUsed).toBe(63_000n);
    expect(all[3]?.receivedFields[TransactionField.gasPrice]).toEqual(Uint8Array.of(0));
  });

  it("takes a transactions root the caller has checked instead of computing it again", async () => {
    const alice = new Signer("alice");
    const chain = await funded(alice);
    const checked = new Uint8Array(32).fill(7);
    const result = await chain.executor.execute({
      block: chain.context(),
      transactions: [alice.sign({to: recipient(1), gasLimit: 21_000n}), createRemascTransaction(1)],
      parentStateRoot: chain.head.stateRoot,
      chain: chain.view(),
      transactionsRoot: checked,
    });
    expect(result.transactionsRoot).toEqual(checked);
  });

  it("gives identical roots when the same block runs twice from the same parent", async () => {
    const alice = new Signer("alice");
    const chain = await funded(alice);
    const txs = [1, 2].map((i) => alice.sign({to: recipient(i), value: 1n, gasPrice: 2n, gasLimit: 21_000n}));
    const parent = chain.head;
    const first = (await chain.execute(txs, {}, parent)).result!;
    const second = (await chain.execute(txs, {}, parent)).result!;
    for (const key of ["stateRoot", "receiptsRoot", "transactionsRoot", "logsBloom"] as const) {
      expect(second[key]).toEqual(first[key]);
    }
    expect(first.stateRoot).not.toEqual(parent.stateRoot);
  });
});

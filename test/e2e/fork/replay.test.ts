// End-to-end: the gas of replayed upstream transactions (docs/forking.md §8). A real
// xchain regtest upstream deploys the fork benchmark's two tokens and constant-product pair with liquidity,
// then mines block X holding transactions of every kind: token transfers to an existing and a fresh holder,
// a swap through a contract and a two-step pair swap, a deployment, a reverted transfer, a transfer of a whole balance
// (an SSTORE to zero, refunded) and a coin transfer to a new account. A fork node started at X-1 replays
// X's signed transactions, read back from the upstream and re-encoded, one block each, in X's order: every
// receipt (gas used, status, logs, created address) and the state after (balances, nonces, code, the
// token balances and the pair's reserves) equals the upstream's, the pair's last-update timestamp being each block's. Before that, a swap sent to
// the fork pays what the upstream's eth_call of the same swap at X-1 answers. Then, with the upstream answering
// only errors, block assembly leaves out a transaction needing an account never fetched and mines the others
// (docs/forking.md §4.3).
import {encodeCoinNonNullZero, encodeCoinNullZero, encodeRlp, encodeUnsigned, Transaction} from "@xchain/primitives";
import {bytesToPrefixedHex, hexToBytes, keccak256, toQuantity, utf8ToBytes} from "@xchain/utils";
import {type Abi, decodeFunctionResult, encodeAbiParameters, encodeFunctionData, type Hex} from "viem";
import {privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS} from "../support/devClients.ts";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type PairContracts, pairContracts} from "../support/pairContracts.ts";
import {UpstreamProxy} from "../support/upstreamProxy.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const CHAIN_ID = 33;
const REMASC = "0x0000000000000000000000000000000001000008";
const E18 = 10n ** 18n;
const LIQUIDITY = 10_000n * E18;

/** A key of the test's own: not a regtest dev account, which a fork funds anew (docs/forking.md §4.2). */
function keyOf(name: string): {key: Uint8Array; address: Hex} {
  const key = keccak256(utf8ToBytes(`fork replay ${name}`));
  return {key, address: privateKeyToAccount(bytesToPrefixedHex(key) as Hex).address.toLowerCase() as Hex};
}

const [alice, bob, carol, dave, erin] = ["alice", "bob", "carol", "dave", "erin"].map(keyOf) as [
  ReturnType<typeof keyOf>,
  ReturnType<typeof keyOf>,
  ReturnType<typeof keyOf>,
  ReturnType<typeof keyOf>,
  ReturnType<typeof keyOf>,
];
/** A token holder first paid in block X, and an account first created there. */
const FRESH_HOLDER: Hex = "0x00000000000000000000000000000000000fa001";
const FRESH_ACCOUNT: Hex = "0x00000000000000000000000000000000000fa002";

let upstream: RunningNode;
let forkNode: RunningNode;
let deployer: string;
let token0: Hex;
let token1: Hex;
let pair: Hex;
let swapper: Hex;
let contracts: PairContracts;
let X: number;
let blockX: {transactions: string[]};
const nonces = new Map<string, bigint>();

const abiCall = (abi: readonly Record<string, unknown>[], functionName: string, args: unknown[]) =>
  encodeFunctionData({abi: abi as Abi, functionName, args});

/** Signs a transaction of `from` with the test's nonce count and gas price 1 (so fees move balances). */
function signed(from: ReturnType<typeof keyOf>, to: Hex | undefined, data: Hex, gasLimit = 500_000n, value = 0n) {
  const nonce = nonces.get(from.address) ?? 0n;
  nonces.set(from.address, nonce + 1n);
  const tx = Transaction.sign(
    {nonce, gasPrice: 1n, gasLimit, to: to && hexToBytes(to), value, data: hexToBytes(data)},
    from.key,
    CHAIN_ID,
  );
  return bytesToPrefixedHex(tx.encode());
}

/** Sends from an upstream dev account and waits for a successful receipt. */
async function devSend(tx: Record<string, unknown>): Promise<Record<string, unknown>> {
  const hash = await rpc<string>(upstream.httpUrl, "eth_sendTransaction", [
    {from: deployer, gasPrice: "0x0", gas: "0x2dc6c0", ...tx},
  ]);
  const receipt = await waitForReceipt(upstream.httpUrl, hash);
  expect(receipt.status).toBe("0x1");
  return receipt;
}

async function sendRaw(url: string, raw: string): Promise<Record<string, unknown>> {
  return waitForReceipt(url, await rpc<string>(url, "eth_sendRawTransaction", [raw]));
}

/**
 * X's transaction as the signed bytes its sender sent: the fields of `eth_getTransactionByHash` re-encoded
 * as a legacy transaction with the encodings `Transaction.sign` uses, checked to hash to the transaction's hash.
 */
async function rawTransaction(hash: string): Promise<string> {
  const tx = await rpc<Record<string, string | null>>(upstream.httpUrl, "eth_getTransactionByHash", [hash]);
  const quantity = (field: string) => BigInt(tx[field] as string);
  const raw = encodeRlp([
    encodeUnsigned(quantity("nonce")),
    encodeCoinNonNullZero(quantity("gasPrice")),
    encodeUnsigned(quantity("gas")),
    tx.to ? hexToBytes(tx.to) : new Uint8Array(0),
    encodeCoinNullZero(quantity("value")),
    hexToBytes(tx.input as string),
    encodeUnsigned(quantity("v")),
    encodeUnsigned(quantity("r")),
    encodeUnsigned(quantity("s")),
  ]);
  expect(bytesToPrefixedHex(Transaction.decode(raw, {chainId: CHAIN_ID}).hash())).toBe(hash);
  return bytesToPrefixedHex(raw);
}

/** keccak256 of the 32-byte words concatenated: a mapping's slot. */
const slotOf = (...words: Hex[]): Hex =>
  bytesToPrefixedHex(keccak256(hexToBytes(`0x${words.map((w) => w.slice(2)).join("")}`))) as Hex;
const padded = (value: Hex | bigint) =>
  `0x${(typeof value === "bigint" ? value.toString(16) : value.slice(2)).padStart(64, "0")}` as Hex;
/** The slot of `mapping(address => …)` at `position` for `key`. */
const mappingSlot = (key: Hex, position: bigint) => slotOf(padded(key), padded(position));

/** The pair's reserves at `block` on `url`. */
async function reserves(url: string, block: string): Promise<readonly [bigint, bigint]> {
  const {abi} = contracts.BenchPair;
  const data = await rpc<Hex>(url, "eth_call", [{to: pair, data: abiCall(abi, "getReserves", [])}, block]);
  const [r0, r1] = decodeFunctionResult({abi: abi as Abi, functionName: "getReserves", data}) as readonly bigint[];
  return [r0 as bigint, r1 as bigint];
}

beforeAll(async () => {
  contracts = await pairContracts();
  const {BenchToken: Token, BenchPair: Pair, Swapper, Registry, amountOut} = contracts;
  upstream = await startNode(NO_INTERVAL_BLOCKS);
  const url = upstream.httpUrl;
  deployer = (await rpc<string[]>(url, "eth_accounts"))[0] as string;
  for (const who of [alice, bob, carol, dave, erin]) await devSend({to: who.address, value: toQuantity(E18)});
  const deploy = async (contract: typeof Token, args: Hex = "0x") =>
    (await devSend({data: bytesToPrefixedHex(contract.bytecode) + args.slice(2)})).contractAddress as Hex;
  const supply = encodeAbiParameters([{type: "uint256"}], [10n ** 30n]);
  token0 = await deploy(Token, supply);
  token1 = await deploy(Token, supply);
  pair = await deploy(Pair, encodeAbiParameters([{type: "address"}, {type: "address"}], [token0, token1]));
  swapper = await deploy(Swapper);
  const transfer = (token: Hex, to: Hex, amount: bigint) =>
    devSend({to: token, data: abiCall(Token.abi, "transfer", [to, amount])});
  await transfer(token0, pair, LIQUIDITY);
  await transfer(token1, pair, LIQUIDITY * 2n);
  await devSend({to: pair, data: abiCall(Pair.abi, "mint", [deployer])});
  for (const who of [alice, bob, erin]) await transfer(token0, who.address, 1000n * E18);
  await transfer(token1, bob.address, 5n * E18);
  await transfer(token0, dave.address, 30n);
  await transfer(token0, swapper, 1000n * E18);

  // Block X: several kinds of transactions in one block.
  await rpc(url, "evm_setAutomine", [false]);
  const [r0, r1] = await reserves(url, "latest");
  const routed = E18;
  const out1 = amountOut(routed, r0, r1);
  const direct = E18 / 2n;
  const out2 = amountOut(direct, r0 + routed, r1 - out1);
  const registryArgs = encodeAbiParameters([{type: "uint256"}, {type: "uint256"}], [7n, 99n]);
  const sent = [
    signed(alice, token0, abiCall(Token.abi, "transfer", [bob.address, 100n])),
    signed(alice, token0, abiCall(Token.abi, "transfer", [FRESH_HOLDER, 50n])),
    signed(bob, swapper, abiCall(Swapper.abi, "swapExactIn", [pair, token0, routed, bob.address])),
    signed(bob, token0, abiCall(Token.abi, "transfer", [pair, direct])),
    signed(bob, pair, abiCall(Pair.abi, "swap", [0n, out2, bob.address])),
    signed(carol, undefined, `${bytesToPrefixedHex(Registry.bytecode)}${registryArgs.slice(2)}` as Hex, 1_000_000n),
    signed(carol, token0, abiCall(Token.abi, "transfer", [alice.address, 1n])),
    signed(dave, token0, abiCall(Token.abi, "transfer", [bob.address, 30n])),
    signed(alice, FRESH_ACCOUNT, "0x", 21_000n, 10n ** 15n),
  ];
  const hashes = [];
  for (const raw of sent) hashes.push(await rpc<string>(url, "eth_sendRawTransaction", [raw]));
  await rpc(url, "evm_mine", []);
  X = Number(await rpc<string>(url, "eth_blockNumber"));
  blockX = await rpc(url, "eth_getBlockByNumber", [toQuantity(X), false]);
  // Every transaction is in X (and the REMASC transaction last).
  expect(blockX.transactions.slice(0, -1).sort()).toEqual([...hashes].sort());

  forkNode = await startNode(["--fork.url", url, "--fork.block", String(X - 1), ...NO_INTERVAL_BLOCKS]);
}, 180_000);

afterAll(async () => {
  await forkNode?.stop();
  await upstream?.stop();
});

describe("a fork replays an upstream block", () => {
  it("pays a swap what the upstream's eth_call of the same swap at the fork block answers", async () => {
    const fork = forkNode.httpUrl;
    const atFork = toQuantity(X - 1);
    const amountIn = 3n * E18;
    const {Swapper, BenchToken: Token, amountOut} = contracts;
    const swap = abiCall(Swapper.abi, "swapExactIn", [pair, token0, amountIn, erin.address]);
    const expected = await rpc<Hex>(upstream.httpUrl, "eth_call", [
      {from: erin.address, to: swapper, data: swap},
      atFork,
    ]);
    const [r0, r1] = await reserves(upstream.httpUrl, atFork);
    const out = decodeFunctionResult({abi: Swapper.abi as Abi, functionName: "swapExactIn", data: expected}) as bigint;
    expect(out).toBe(amountOut(amountIn, r0, r1));
    expect(await rpc(fork, "eth_call", [{from: erin.address, to: swapper, data: swap}, "latest"])).toBe(expected);

    const snapshot = await rpc<string>(fork, "evm_snapshot", []);
    const receipt = await sendRaw(fork, signed(erin, swapper, swap));
    expect(receipt.status).toBe("0x1");
    expect(await reserves(fork, "latest")).toEqual([r0 + amountIn, r1 - out]);
    const balance = await rpc<Hex>(fork, "eth_call", [
      {to: token1, data: abiCall(Token.abi, "balanceOf", [erin.address])},
      "latest",
    ]);
    expect(BigInt(balance)).toBe(out);
    // Back to the fork block, for the replay.
    expect(await rpc(fork, "evm_revert", [snapshot])).toBe(true);
    nonces.set(erin.address, nonces.get(erin.address)! - 1n);
    expect(await reserves(fork, "latest")).toEqual([r0, r1]);
  });

  it("replays X's transactions with the upstream's gas, status and logs, and ends in X's state", async () => {
    const fork = forkNode.httpUrl;
    const up = upstream.httpUrl;
    const replayed = blockX.transactions;
    let created: Hex | undefined;
    /** The fork's block that last ran a transaction to the pair. */
    let lastPairBlock: string | undefined;
    for (const hash of replayed) {
      const original = await rpc<Record<string, unknown>>(up, "eth_getTransactionReceipt", [hash]);
      if ((original.to as string | null)?.toLowerCase() === REMASC) continue;
      const receipt = await sendRaw(fork, await rawTransaction(hash));
      expect(receipt.transactionHash).toBe(hash);
      const fields = (r: Record<string, unknown>) => ({
        gasUsed: r.gasUsed,
        status: r.status,
        from: r.from,
        to: r.to,
        contractAddress: r.contractAddress,
        logs: (r.logs as Record<string, unknown>[]).map(({address, topics, data}) => ({address, topics, data})),
      });
      expect(fields(receipt), `transaction ${hash}`).toEqual(fields(original));
      created ??= (original.contractAddress as Hex | null) ?? undefined;
      if (receipt.to === pair) lastPairBlock = receipt.blockNumber as string;
    }
    // What X holds, replayed: a revert, a refund, a deployment.
    const statuses = await Promise.all(
      replayed.map((hash) => rpc<Record<string, string>>(up, "eth_getTransactionReceipt", [hash])),
    );
    expect(statuses.filter((r) => r.status === "0x0")).toHaveLength(1);
    expect(created).toBeDefined();

    const atX = toQuantity(X);
    const same = async (method: string, ...params: unknown[]) =>
      expect(await rpc(fork, method, [...params, "latest"]), `${method} ${params.join(" ")}`).toBe(
        await rpc(up, method, [...params, atX]),
      );
    const senders = [alice, bob, carol, dave, erin].map((k) => k.address);
    for (const address of [...senders, FRESH_HOLDER, FRESH_ACCOUNT, token0, token1, pair, swapper, created as Hex]) {
      await same("eth_getBalance", address);
      await same("eth_getTransactionCount", address);
      await same("eth_getCode", address);
    }
    for (const holder of [...senders, FRESH_HOLDER, pair, swapper, deployer as Hex]) {
      await same("eth_getStorageAt", token0, mappingSlot(holder, 0n));
      await same("eth_getStorageAt", token1, mappingSlot(holder, 0n));
    }
    for (const slot of ["0x1", mappingSlot(deployer as Hex, 2n)]) await same("eth_getStorageAt", pair, slot);
    for (const token of [token0, token1]) await same("eth_getStorageAt", token, "0x1");
    // The pair's slot 0 packs reserve0, reserve1 and the timestamp of the block that updated them last.
    const slot0 = async (url: string, block: string) =>
      BigInt(await rpc<string>(url, "eth_getStorageAt", [pair, "0x0", block]));
    const timestamp = async (url: string, block: string) =>
      BigInt((await rpc<{timestamp: string}>(url, "eth_getBlockByNumber", [block, false])).timestamp);
    const reservesMask = (1n << 224n) - 1n;
    const [forkSlot, upstreamSlot] = [await slot0(fork, "latest"), await slot0(up, atX)];
    expect(forkSlot & reservesMask).toBe(upstreamSlot & reservesMask);
    expect(forkSlot >> 224n).toBe(await timestamp(fork, lastPairBlock as string));
    expect(upstreamSlot >> 224n).toBe(await timestamp(up, atX));
    await same("eth_getStorageAt", created, "0x0");
    await same("eth_getStorageAt", created, mappingSlot(padded(7n), 1n));
    expect(await reserves(fork, "latest")).toEqual(await reserves(up, atX));
    // The whole balance moved: dave's slot is zero again.
    expect(BigInt(await rpc<string>(fork, "eth_getStorageAt", [token0, mappingSlot(dave.address, 0n), "latest"]))).toBe(
      0n,
    );
  });
});

describe("block assembly on a fork whose upstream cannot answer", () => {
  const FETCHED = "0x00000000000000000000000000000000000fd001";
  const NEVER_FETCHED = "0x00000000000000000000000000000000000fd002";

  it("leaves out a transaction needing an unfetched account, mines the others, and mines it once the upstream answers", async () => {
    const proxy = new UpstreamProxy(upstream.httpUrl);
    const proxyUrl = await proxy.start();
    const node = await startNode([
      ...["--fork.url", proxyUrl, "--fork.block", String(X - 1), "--fork.retries", "1"],
      ...NO_INTERVAL_BLOCKS,
    ]);
    try {
      const url = node.httpUrl;
      const [cow0, cow1] = await rpc<string[]>(url, "eth_accounts");
      // Gas given: an estimate would read the recipient.
      const send = (from: string | undefined, to: string, value: string) =>
        rpc<string>(url, "eth_sendTransaction", [{from, to, value, gas: "0x5208", gasPrice: "0x0"}]);
      const receipt = (hash: string) => rpc<Record<string, unknown> | null>(url, "eth_getTransactionReceipt", [hash]);
      // A first block reads what every block reads (the REMASC accounts, the coinbase), cow1 and FETCHED.
      await waitForReceipt(url, await send(cow1, FETCHED, "0x1"));

      proxy.tooManyRequests = Number.MAX_SAFE_INTEGER;
      const stuck = await send(cow0, NEVER_FETCHED, "0x7");
      const mined = await waitForReceipt(url, await send(cow1, FETCHED, "0x2"));
      expect(await receipt(stuck)).toBeNull();
      const block = await rpc<{transactions: string[]}>(url, "eth_getBlockByNumber", [mined.blockNumber, false]);
      expect(block.transactions).not.toContain(stuck);
      expect(await rpc(url, "eth_getBalance", [FETCHED, "latest"])).toBe("0x3");
      // cow0's partial execution (its nonce, the gas bought, the value moved) reached no block.
      expect(await rpc(url, "eth_getTransactionCount", [cow0, "latest"])).toBe(
        await rpc(upstream.httpUrl, "eth_getTransactionCount", [cow0, toQuantity(X - 1)]),
      );
      const leftOut = node.logs.find((line) => line.msg === "a pending transaction was left out of the block");
      expect((leftOut?.err as {message?: string} | undefined)?.message).toContain(
        `upstream ${proxyUrl}: reading account ${NEVER_FETCHED} failed`,
      );

      // The upstream answers again: the transaction left pending is mined with the next block.
      proxy.tooManyRequests = 0;
      await waitForReceipt(url, await send(cow1, FETCHED, "0x4"));
      expect((await waitForReceipt(url, stuck)).status).toBe("0x1");
      expect(await rpc(url, "eth_getBalance", [NEVER_FETCHED, "latest"])).toBe("0x7");
    } finally {
      await node.stop();
      await proxy.stop();
    }
  }, 120_000);
});

// End-to-end: the two halves of fork mode connected (docs/forking.md §2). A real xchain regtest node is the
// upstream (behind a counting proxy on a free loopback port); its ForkSource, adapted by forkSourceBase, is
// the base of a local StateDatabase. The fork's first state reads what the upstream answers at the fork
// block; a block executed by the real BlockExecutor on it (a transfer from an upstream dev account, a call
// that writes a contract's storage) commits a delta root that reads the new values over the upstream's
// others; once the upstream is killed, a read of an account never fetched fails with the ForkError naming
// the upstream and the key, while fetched values still answer from the fork's cache.
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {getChainspec} from "@xchain/chainspec";
import {MemoryStore, WriteBatch} from "@xchain/db";
import {BlockExecutor} from "@xchain/execution";
import {createRemascTransaction, Transaction} from "@xchain/primitives";
import {
  defaultForkSourceOptions,
  defaultStateOptions,
  ForkError,
  ForkErrorCode,
  ForkSource,
  forkBaseId,
  forkSourceBase,
  type StateBase,
  StateDatabase,
  StateErrorCode,
} from "@xchain/state";
import {cowAccounts, NO_CHAIN_HEADERS} from "@xchain/test-utils";
import {bigIntToFixedBytes, bytesToPrefixedHex, hexToBytes, keccak256, toQuantity} from "@xchain/utils";
import {encodeFunctionData} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {NO_INTERVAL_BLOCKS} from "../support/devClients.ts";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {UpstreamProxy} from "../support/upstreamProxy.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const chainspec = getChainspec("regtest");
const RICH = "0x00000000000000000000000000000000000f0b01";
const RECIPIENT = "0x00000000000000000000000000000000000f0b02";
const NEVER_FETCHED = "0x00000000000000000000000000000000000f0b03";
const SLOT0 = new Uint8Array(32);
const COINBASE = new Uint8Array(20).fill(0xcb);
const [cow] = cowAccounts();
if (cow === undefined) throw new Error("the regtest cow accounts are missing");
const COW = bytesToPrefixedHex(cow.address);

let node: RunningNode;
let proxy: UpstreamProxy;
let proxyUrl: string;
let source: ForkSource;
let fork: {number: number; hash: string; timestamp: number};
let counter: string;

beforeAll(async () => {
  node = await startNode(NO_INTERVAL_BLOCKS);
  const url = node.httpUrl;
  // At the fork block: a funded account with a nonce, a counter contract whose slot 0 is 1.
  await rpc(url, "anvil_setBalance", [RICH, "0xde0b6b3a7640000"]);
  await rpc(url, "anvil_setNonce", [RICH, "0x5"]);
  await rpc(url, "evm_mine", []);
  const deploy = await rpc<string>(url, "eth_sendTransaction", [{from: COW, data: counterBytecode(), gas: "0x100000"}]);
  counter = (await waitForReceipt(url, deploy)).contractAddress as string;
  const increment = encodeFunctionData({abi: COUNTER_ABI, functionName: "increment"});
  await waitForReceipt(url, await rpc<string>(url, "eth_sendTransaction", [{from: COW, to: counter, data: increment}]));
  const block = await rpc<{number: string; hash: string; timestamp: string}>(url, "eth_getBlockByNumber", [
    "latest",
    false,
  ]);
  fork = {number: Number(block.number), hash: block.hash, timestamp: Number(block.timestamp)};
  proxy = new UpstreamProxy(url);
  proxyUrl = await proxy.start();
  source = await ForkSource.open({
    ...defaultForkSourceOptions,
    retries: 1,
    url: proxyUrl,
    block: hexToBytes(fork.hash),
    cacheDir: mkdtempSync(join(tmpdir(), "xchain-forked-state-")),
  });
});

afterAll(async () => {
  await source?.close();
  await proxy?.stop();
  await node?.stop();
});

/** The upstream's own answers at the fork block. */
async function upstream(method: string, ...params: string[]): Promise<string> {
  return rpc<string>(node.httpUrl, method, [...params, toQuantity(fork.number)]);
}

/** A local state database whose forked states read the upstream through `base`. */
function forkedDatabase(base: StateBase): {store: MemoryStore; state: StateDatabase} {
  const store = new MemoryStore();
  const state = new StateDatabase(
    {...defaultStateOptions, recordPreimages: true},
    {store, base: {current: () => base}},
  );
  return {store, state};
}

describe("a forked state over a live xchain upstream", () => {
  it("reads the upstream, executes a block over it, and survives the upstream's death on cached values", async () => {
    const base = forkSourceBase(source);
    expect(source.verifies).toBe(true);
    expect(base.id).toEqual(forkBaseId(33n, hexToBytes(fork.hash)));
    const {store, state} = forkedDatabase(base);
    const executor = new BlockExecutor({}, {chainspec, state});
    const common = executor.commonAt(fork.number + 1);
    const start = await state.forkRoot(base.id);
    await store.write(new WriteBatch().append(start.writes));

    // The fork's first state answers what the upstream answers at the fork block.
    const first = await state.reader(start.root, common);
    for (const address of [RICH, COW, counter]) {
      const account = await first.getAccount(hexToBytes(address));
      expect(account?.balance).toBe(BigInt(await upstream("eth_getBalance", address)));
      expect(account?.nonce).toBe(BigInt(await upstream("eth_getTransactionCount", address)));
      expect(bytesToPrefixedHex(await first.getCode(hexToBytes(address)))).toBe(await upstream("eth_getCode", address));
    }
    expect((await first.getCode(hexToBytes(counter))).length).toBeGreaterThan(0);
    const slot0 = await upstream("eth_getStorageAt", counter, "0x0");
    expect(BigInt(slot0)).toBe(1n);
    expect(await first.getStorage(hexToBytes(counter), SLOT0)).toEqual(bigIntToFixedBytes(1n, 32));
    // An account the upstream does not have (all empty) is absent; its storage is known empty from its proof.
    expect(await first.getAccount(hexToBytes(RECIPIENT))).toBeUndefined();
    expect((await base.account(hexToBytes(counter)))?.storageEmpty).toBe(false);
    expect((await base.account(hexToBytes(RICH)))?.storageEmpty).toBe(true);
    // Code is the base's only under the hash its account has at the fork block.
    await expect(base.code(hexToBytes(counter), keccak256(Uint8Array.of(0)))).rejects.toMatchObject({
      code: StateErrorCode.NODE_MISSING,
    });

    // A block on the fork: a transfer from the upstream's dev account, a call writing the counter's slot 0.
    const cowNonce = BigInt(await upstream("eth_getTransactionCount", COW));
    const sign = (nonce: bigint, to: string, value: bigint, data: Uint8Array) =>
      Transaction.sign({nonce, gasPrice: 1n, gasLimit: 200_000n, to: hexToBytes(to), value, data}, cow.privateKey, 33);
    const increment = hexToBytes(encodeFunctionData({abi: COUNTER_ABI, functionName: "increment"}));
    const number = fork.number + 1;
    const result = await executor.execute({
      block: {
        number,
        timestamp: fork.timestamp + 1,
        coinbase: COINBASE,
        difficulty: 1n,
        gasLimit: 6_800_000n,
        minimumGasPrice: 0n,
      },
      transactions: [
        sign(cowNonce, RECIPIENT, 12_345n, new Uint8Array(0)),
        sign(cowNonce + 1n, counter, 0n, increment),
        createRemascTransaction(number),
      ],
      parentStateRoot: start.root,
      chain: {blockHash: async (n) => source.blockHash(n), remasc: undefined, headers: NO_CHAIN_HEADERS},
    });
    expect(result.outcomes.map((o) => o.status)).toEqual([true, true, true]);
    await store.write(new WriteBatch().append(result.stateWrites));
    const gas = result.outcomes.slice(0, 2).reduce((sum, o) => sum + o.gasUsed, 0n);

    const after = await state.reader(result.stateRoot, common);
    expect((await after.getAccount(hexToBytes(RECIPIENT)))?.balance).toBe(12_345n);
    const cowAfter = await after.getAccount(cow.address);
    expect(cowAfter?.nonce).toBe(cowNonce + 2n);
    expect(cowAfter?.balance).toBe(BigInt(await upstream("eth_getBalance", COW)) - 12_345n - gas);
    expect(await after.getStorage(hexToBytes(counter), SLOT0)).toEqual(bigIntToFixedBytes(2n, 32));
    expect(bytesToPrefixedHex(await after.getCode(hexToBytes(counter)))).toBe(await upstream("eth_getCode", counter));
    expect((await after.getAccount(hexToBytes(RICH)))?.balance).toBe(BigInt(await upstream("eth_getBalance", RICH)));
    // The fork's start is unchanged, and the upstream too (local writes never reach it).
    expect(await first.getStorage(hexToBytes(counter), SLOT0)).toEqual(bigIntToFixedBytes(1n, 32));
    expect(await upstream("eth_getStorageAt", counter, "0x0")).toBe(slot0);

    // The dump lists the block's writes only, the counter's code being the upstream's.
    const dump = await state.dump(result.stateRoot, {maxBytes: 1_000_000});
    expect(dump.forked).toBe(true);
    const listed = new Map(dump.accounts.map((a) => [bytesToPrefixedHex(a.address), a]));
    expect(listed.has(RICH)).toBe(false);
    expect(listed.get(RECIPIENT)?.balance).toBe(12_345n);
    expect(listed.get(counter)?.storage).toEqual([[SLOT0, bigIntToFixedBytes(2n, 32)]]);
    expect(bytesToPrefixedHex(listed.get(counter)?.code ?? new Uint8Array(0))).toBe(
      await upstream("eth_getCode", counter),
    );

    // The upstream dies: a value never fetched fails with the error naming it and the key; fetched ones answer.
    await proxy.stop();
    const reopened = forkedDatabase(base);
    await reopened.store.write(new WriteBatch().append(start.writes).append(result.stateWrites));
    const dead = await reopened.state.reader(result.stateRoot, common);
    const failure = await dead.getAccount(hexToBytes(NEVER_FETCHED)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ForkError);
    expect((failure as ForkError).type).toMatchObject({
      code: ForkErrorCode.UPSTREAM_UNREACHABLE,
      url: proxyUrl,
      key: `account ${NEVER_FETCHED}`,
    });
    expect((failure as ForkError).message).toContain(proxyUrl);
    expect((await dead.getAccount(hexToBytes(RICH)))?.nonce).toBe(5n);
    expect(bytesToPrefixedHex(await dead.getCode(hexToBytes(counter)))).toBe(await upstream("eth_getCode", counter));
    expect(await dead.getStorage(hexToBytes(counter), SLOT0)).toEqual(bigIntToFixedBytes(2n, 32));
    const deadStart = await reopened.state.reader(start.root, common);
    expect(await deadStart.getStorage(hexToBytes(counter), SLOT0)).toEqual(bigIntToFixedBytes(1n, 32));
  });
});

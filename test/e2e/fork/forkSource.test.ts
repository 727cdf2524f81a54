// End-to-end: the fork's remote side (docs/forking.md §1) against a real xchain regtest node behind a proxy
// on loopback: reads at the pinned fork block equal the node's own answers, batched; a second run on the
// same cache sends no request and an offline run none either; 429s are retried; an upstream that refuses
// batches or EIP-1898 block objects is still read; a killed upstream fails the read with the precise error;
// a tampered answer is refused under verify "on" and not cached.
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {defaultForkSourceOptions, ForkError, ForkErrorCode, ForkSource, type ForkSourceOptions} from "@xchain/state";
import {bytesToPrefixedHex, hexToBytes, toQuantity} from "@xchain/utils";
import {afterAll, afterEach, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS, SLOT0_READER} from "../support/devClients.ts";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {UpstreamProxy} from "../support/upstreamProxy.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const RICH = "0x00000000000000000000000000000000000f0a01";
const CONTRACT = "0x00000000000000000000000000000000000f0a02";
const RECIPIENT = "0x00000000000000000000000000000000000f0a03";
const BRIDGE = "0x0000000000000000000000000000000001000006";
const SLOT0 = `0x${"0".repeat(64)}`;
const SLOT7 = `0x${"0".repeat(63)}7`;
const WORD = `0x${"ab".repeat(32)}`;

interface ForkBlock {
  number: number;
  hash: string;
}

let node: RunningNode;
let fork: ForkBlock;
const proxies: UpstreamProxy[] = [];
const sources: ForkSource[] = [];

async function proxy(): Promise<[UpstreamProxy, string]> {
  const p = new UpstreamProxy(node.httpUrl);
  proxies.push(p);
  return [p, await p.start()];
}

async function open(url: string, cacheDir: string, opts: Partial<ForkSourceOptions> = {}): Promise<ForkSource> {
  const source = await ForkSource.open({
    ...defaultForkSourceOptions,
    retries: 2,
    url,
    block: hexToBytes(fork.hash),
    cacheDir,
    ...opts,
  });
  sources.push(source);
  return source;
}

function cacheDir(): string {
  return mkdtempSync(join(tmpdir(), "xchain-fork-cache-"));
}

async function failure(read: Promise<unknown>): Promise<ForkError> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ForkError);
  return error as ForkError;
}

/**
 * Opens a source on a fresh cache and reads everything (equal to the node's answers), then opens another on
 * the same cache: it reads the same with no request reaching the upstream.
 */
async function coldThenWarm(counter: UpstreamProxy, url: string, dir: string, opts: Partial<ForkSourceOptions> = {}) {
  const want = await expected();
  const cold = await open(url, dir, opts);
  expect(await read(cold)).toEqual(want);
  await cold.close();
  sources.splice(sources.indexOf(cold), 1);
  counter.reset();
  const warm = await open(url, dir, opts);
  expect(await read(warm)).toEqual(want);
  expect(counter.requests).toBe(0);
  return warm;
}

const hex = (bytes: Uint8Array) => bytesToPrefixedHex(bytes);
const address = (a: string) => hexToBytes(a);

beforeAll(async () => {
  node = await startNode(NO_INTERVAL_BLOCKS);
  const url = node.httpUrl;
  // State at the fork block: a transfer mined, a balance and nonce set, a contract with storage.
  const [from] = await rpc<string[]>(url, "eth_accounts");
  const tx = await rpc<string>(url, "eth_sendTransaction", [
    {from, to: RECIPIENT, value: "0x2540be400", gasPrice: "0x0"},
  ]);
  await waitForReceipt(url, tx);
  await rpc(url, "anvil_setBalance", [RICH, "0xde0b6b3a7640000"]);
  await rpc(url, "anvil_setNonce", [RICH, "0x7"]);
  await rpc(url, "anvil_setCode", [CONTRACT, SLOT0_READER]);
  await rpc(url, "anvil_setStorageAt", [CONTRACT, SLOT0, WORD]);
  await rpc(url, "anvil_setStorageAt", [CONTRACT, SLOT7, `0x${"0".repeat(62)}2a`]);
  // The Bridge's value 0x0102 in xchain's byte-string layout (docs/protocol/native-contracts.md §10.4).
  await rpc(url, "anvil_setStorageAt", [BRIDGE, SLOT7, `0x0102${"00".repeat(29)}04`]);
  await rpc(url, "evm_mine", []);
  const block = await rpc<{number: string; hash: string}>(url, "eth_getBlockByNumber", ["latest", false]);
  fork = {number: Number(block.number), hash: block.hash};
  // After the fork block: other values, which reads pinned at the fork block must not see. A block is mined
  // first: an edit of the head's state would edit the fork block's own (docs/rpc.md §4.10 "State").
  await rpc(url, "evm_mine", []);
  await rpc(url, "anvil_setBalance", [RICH, "0x1"]);
  await rpc(url, "anvil_setStorageAt", [CONTRACT, SLOT0, `0x${"0".repeat(63)}1`]);
  await rpc(url, "evm_mine", []);
});

afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
  for (const p of proxies.splice(0)) await p.stop();
});

afterAll(async () => {
  await node?.stop();
});

/** The node's own answers at the fork block. */
async function expected() {
  const at = toQuantity(fork.number);
  const [balance, nonce, code, slot0, slot7, recipient, noStorage] = await Promise.all([
    rpc<string>(node.httpUrl, "eth_getBalance", [RICH, at]),
    rpc<string>(node.httpUrl, "eth_getTransactionCount", [RICH, at]),
    rpc<string>(node.httpUrl, "eth_getCode", [CONTRACT, at]),
    rpc<string>(node.httpUrl, "eth_getStorageAt", [CONTRACT, SLOT0, at]),
    rpc<string>(node.httpUrl, "eth_getStorageAt", [CONTRACT, SLOT7, at]),
    rpc<string>(node.httpUrl, "eth_getBalance", [RECIPIENT, at]),
    rpc<string>(node.httpUrl, "eth_getStorageAt", [RECIPIENT, SLOT0, at]),
  ]);
  const hashes = await Promise.all(
    [0, 1, fork.number - 1].map(
      async (n) => (await rpc<{hash: string}>(node.httpUrl, "eth_getBlockByNumber", [toQuantity(n), false])).hash,
    ),
  );
  return {
    balance: BigInt(balance),
    nonce: BigInt(nonce),
    code,
    slot0,
    slot7,
    recipient: BigInt(recipient),
    noStorage,
    hashes,
  };
}

/** The same values read through a fork source. */
async function read(source: ForkSource) {
  const [rich, code, slot0, slot7, recipient, noStorage, ...hashes] = await Promise.all([
    source.account(address(RICH)),
    source.code(address(CONTRACT)),
    source.storage(address(CONTRACT), hexToBytes(SLOT0)),
    source.storage(address(CONTRACT), hexToBytes(SLOT7)),
    source.account(address(RECIPIENT)),
    source.storage(address(RECIPIENT), hexToBytes(SLOT0)),
    ...[0, 1, fork.number - 1].map((n) => source.blockHash(n)),
  ]);
  return {
    balance: rich.balance,
    nonce: rich.nonce,
    code: hex(code),
    slot0: hex(slot0),
    slot7: hex(slot7),
    recipient: recipient.balance,
    noStorage: hex(noStorage),
    hashes: hashes.map(hex),
  };
}

describe("ForkSource against an xchain upstream", () => {
  it("reads balances, nonces, code, storage and block hashes at the fork block, verified and batched", async () => {
    const [counter, url] = await proxy();
    const source = await open(url, cacheDir(), {verify: "on"});
    expect([source.dialect, source.verifies, source.header.number, hex(source.header.hash)]).toEqual([
      "xchain",
      true,
      fork.number,
      fork.hash,
    ]);
    const want = await expected();
    expect(want.balance).toBe(10n ** 18n);
    expect(want.slot0).toBe(WORD);
    counter.reset();
    expect(await read(source)).toEqual(want);
    // Reads started together go out in batches: fewer HTTP requests than calls.
    expect(counter.requests).toBeLessThan(counter.calls.length);
    expect(counter.calls.every((c) => c.method !== "eth_getBalance")).toBe(true); // proofs, not bare reads
  });

  it("asks an upstream it does not know its chain id, client version, the fork block and the proofs probe in one request", async () => {
    for (const block of [hexToBytes(fork.hash), fork.number]) {
      const [counter, url] = await proxy();
      const source = await open(url, cacheDir(), {block});
      expect([source.verifies, source.header.number]).toEqual([true, fork.number]);
      expect(counter.requests).toBe(1);
      const pin = typeof block === "number" ? toQuantity(block) : {blockHash: fork.hash};
      expect(counter.calls.map((c) => [c.method, c.params.at(-1)])).toEqual([
        ["eth_chainId", undefined],
        ["web3_clientVersion", undefined],
        [typeof block === "number" ? "eth_getBlockByNumber" : "eth_getBlockByHash", false],
        ["eth_getProof", pin],
      ]);
    }
  });

  it("a second run on the same cache sends no request, and an offline run reads the cache alone", async () => {
    const [counter, url] = await proxy();
    const dir = cacheDir();
    const want = await expected();
    const warm = await coldThenWarm(counter, url, dir);
    await warm.close();
    sources.pop();

    // Offline, naming no block: the last fork block of this upstream, from the cache.
    await counter.stop();
    const offline = await open(url, dir, {offline: true, block: undefined});
    expect(await read(offline)).toEqual(want);
    const miss = await failure(offline.account(address("0x00000000000000000000000000000000000f0aff")));
    expect(miss.type.code).toBe(ForkErrorCode.OFFLINE_MISS);
    expect(miss.message).toBe(
      `fork.offline: the cache holds no account 0x00000000000000000000000000000000000f0aff (chain 33, fork block ${fork.hash}); run once online to fetch it`,
    );
  });

  it("pins a fork block named by number, and reopens it by number from the cache alone", async () => {
    const [counter, url] = await proxy();
    const warm = await coldThenWarm(counter, url, cacheDir(), {block: fork.number});
    expect(hex(warm.header.hash)).toBe(fork.hash);
    const above = await failure(warm.blockHash(fork.number + 1));
    expect(above.message).toBe(
      `block ${fork.number + 1} is above the fork block ${fork.number}: the upstream's hash is not the fork's`,
    );
  });

  it("retries HTTP 429 and succeeds", async () => {
    const [counter, url] = await proxy();
    const source = await open(url, cacheDir());
    counter.reset();
    counter.tooManyRequests = 2;
    expect((await source.account(address(RICH))).balance).toBe(10n ** 18n);
    expect(counter.requests).toBe(3);
  });

  it("reads an upstream that refuses batches and EIP-1898 block objects, one call at a time, by number", async () => {
    const [counter, url] = await proxy();
    counter.refuseBatches = true;
    counter.refuseBlockObjects = true;
    const source = await open(url, cacheDir());
    expect(await read(source)).toEqual(await expected());
    // The first batch was refused (and answered nothing); every request since carried one call.
    expect(counter.requests).toBe(counter.calls.length + 1);
    // Block objects were refused twice, both the eth_getProof probe at open: asked with the first contact,
    // then again as any read is, which learns to read by number; every read since is by number.
    const withObject = (c: {params: unknown[]}) => JSON.stringify(c.params).includes("blockHash");
    expect(counter.calls.filter(withObject).map((c) => c.method)).toEqual(["eth_getProof", "eth_getProof"]);
    const since = counter.calls.slice(counter.calls.findLastIndex(withObject) + 1);
    expect(since.filter((c) => c.method === "eth_getProof").length).toBeGreaterThan(3);
    expect(since.filter(withObject)).toEqual([]);
  });

  it("an upstream without eth_getProof: verify on refuses it, auto reads unverified, the warm run is free", async () => {
    const [counter, url] = await proxy();
    counter.missingMethods = ["eth_getProof"];
    const dir = cacheDir();
    const refused = await failure(open(url, dir, {verify: "on"}));
    expect(refused.type.code).toBe(ForkErrorCode.PROOFS_UNAVAILABLE);
    expect(refused.message).toMatch(
      new RegExp(`^fork.verify is "on" but the upstream ${url} \\(xchain/.*\\) serves no eth_getProof$`),
    );
    expect((await coldThenWarm(counter, url, dir)).verifies).toBe(false);
  });

  it("reads a native contract's raw storage as the upstream's xchain_getStorageBytesAt answers it", async () => {
    const [counter, url] = await proxy();
    const source = await open(url, cacheDir());
    const at = toQuantity(fork.number);
    const [slot7, slot0] = await Promise.all([
      rpc<string>(node.httpUrl, "xchain_getStorageBytesAt", [BRIDGE, SLOT7, at]),
      rpc<string>(node.httpUrl, "xchain_getStorageBytesAt", [BRIDGE, SLOT0, at]),
    ]);
    expect([slot7, slot0]).toEqual(["0x0102", "0x0"]);
    counter.reset();
    expect(hex(await source.storageBytes(address(BRIDGE), hexToBytes(SLOT7)))).toBe(slot7);
    expect((await source.storageBytes(address(BRIDGE), hexToBytes(SLOT0))).length).toBe(0);
    // An xchain upstream's storage is words: read (and verified) as slots, never by its restricted method;
    // the Bridge's byte strings are read back from them.
    expect(counter.calls.map((c) => c.method)).not.toContain("xchain_getStorageBytesAt");
    expect(counter.calls.map((c) => c.method)).toContain("eth_getProof");
  });

  it("a killed upstream fails the read with an error naming the upstream (without credentials) and the key", async () => {
    const [counter, url] = await proxy();
    const withCredentials = url.replace("http://", "http://alice:s3cret@");
    const source = await open(withCredentials, cacheDir(), {retries: 1});
    expect((await source.account(address(RICH))).nonce).toBe(7n); // the credentials went as a header
    await counter.stop();
    const error = await failure(source.account(address(RECIPIENT)));
    expect(error.type.code).toBe(ForkErrorCode.UPSTREAM_UNREACHABLE);
    expect(error.message).toBe(`upstream ${url}: reading account ${RECIPIENT} failed 2 times (ECONNREFUSED)`);
    expect(error.message).not.toContain("s3cret");
  });

  it("refuses a tampered balance or storage value under verify on, and does not cache it", async () => {
    const [counter, url] = await proxy();
    const dir = cacheDir();
    const source = await open(url, dir, {verify: "on"});
    counter.tamper = (call, result) => {
      if (call.method !== "eth_getProof") return result;
      const proof = result as {balance: string; storageProof: {value: string}[]};
      const entry = proof.storageProof[0];
      return entry ? {...proof, storageProof: [{...entry, value: "0x2b"}]} : {...proof, balance: "0x1bc16d674ec80000"};
    };
    const balance = await failure(source.account(address(RICH)));
    expect(balance.type.code).toBe(ForkErrorCode.PROOF_INVALID);
    expect(balance.message).toContain(`account ${RICH} does not verify against the fork block's state root`);
    const slot = await failure(source.storage(address(CONTRACT), hexToBytes(SLOT7)));
    expect(slot.type.code).toBe(ForkErrorCode.PROOF_INVALID);
    expect(slot.message).toContain("the answer's value is");
    await source.close();
    sources.pop();
    const offline = await open(url, dir, {offline: true});
    expect((await failure(offline.account(address(RICH)))).type.code).toBe(ForkErrorCode.OFFLINE_MISS);
    expect((await failure(offline.storage(address(CONTRACT), hexToBytes(SLOT7)))).type.code).toBe(
      ForkErrorCode.OFFLINE_MISS,
    );
  });

  it("repoints to another upstream of the fork: a read in flight finishes on the previous one, later reads go to the new", async () => {
    const [first, firstUrl] = await proxy();
    const source = await open(firstUrl, cacheDir());
    let release = () => {};
    first.stall = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inFlight = source.account(address(RICH));
    const [second, secondUrl] = await proxy();
    await source.repoint(secondUrl);
    expect(source.url).toBe(secondUrl);
    release();
    expect((await inFlight).balance).toBe(10n ** 18n);
    first.reset();
    second.reset();
    expect((await source.account(address(RECIPIENT))).balance).toBe((await expected()).recipient);
    expect([first.requests, second.requests > 0]).toEqual([0, true]);
    // Another chain, or an upstream without the fork block: refused, the source unchanged.
    const [, otherChain] = await proxy();
    proxies.at(-1)!.tamper = (call, result) => (call.method === "eth_chainId" ? "0x1f" : result);
    const chain = await failure(source.repoint(otherChain));
    expect(chain.type.code).toBe(ForkErrorCode.UPSTREAM_MISMATCH);
    expect(chain.message).toBe(
      `upstream ${otherChain} is chain id 31, this fork's upstream chain id 33: a fork keeps its chain (start another node to fork that one)`,
    );
    const [, noBlock] = await proxy();
    proxies.at(-1)!.tamper = (call, result) => (call.method === "eth_getBlockByHash" ? null : result);
    const missing = await failure(source.repoint(noBlock));
    expect(missing.type.code).toBe(ForkErrorCode.FORK_BLOCK_NOT_FOUND);
    expect(missing.message).toContain(`has no block ${fork.hash}, the fork block ${fork.number}`);
    expect(source.url).toBe(secondUrl);
  });

  it("re-forks at another block on the same cache; the retired source answers what was cached and refuses the rest", async () => {
    const [counter, url] = await proxy();
    // Unverified: the upstream's dev edits changed the state after the block below the fork block (§1.4).
    const source = await open(url, cacheDir(), {verify: "off"});
    const rich = await source.account(address(RICH));
    const earlier = await source.refork({block: fork.number - 1});
    sources.push(earlier);
    expect(earlier.header.number).toBe(fork.number - 1);
    const before = await rpc<string>(node.httpUrl, "eth_getBalance", [RICH, toQuantity(fork.number - 1)]);
    expect((await earlier.account(address(RICH))).balance).toBe(BigInt(before));
    await source.retire();
    counter.reset();
    expect(await source.account(address(RICH))).toEqual(rich);
    const closed = await failure(source.account(address(RECIPIENT)));
    expect(closed.message).toBe(
      `upstream ${url}: reading account ${RECIPIENT}: the fork of block ${fork.number} was closed (reset to another block, or the node stopping)`,
    );
    expect(counter.requests).toBe(0);
    // The cache stays open for the new source; another chain is refused.
    expect((await earlier.account(address(RECIPIENT))).balance).toBeGreaterThanOrEqual(0n);
    const [, otherChain] = await proxy();
    proxies.at(-1)!.tamper = (call, result) => (call.method === "eth_chainId" ? "0x1f" : result);
    expect((await failure(earlier.refork({url: otherChain}))).type.code).toBe(ForkErrorCode.UPSTREAM_MISMATCH);
    expect((await earlier.account(address(RICH))).balance).toBe(BigInt(before));
  });
});

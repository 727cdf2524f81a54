// A fork of an rskj upstream reading the Bridge's storage (docs/forking.md §6), against an endpoint on a free
// loopback port that answers as rskj does: a real rskj block object as the fork block, rsk_getStorageBytesAt
// with values longer than a word under ASCII keys (spec native-contracts.md §14.5.4), eth_getStorageAt cut to
// 32 bytes, and rskj's -32601 for rsk_getStorageBytesAt while it is disabled (its default).
import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {MemoryStore, WriteBatch} from "@xchain/db";
import {FakeBlockEndpoint, rskjForkBlock, serveRskjState} from "@xchain/test-utils";
import {bigIntToFixedBytes, bytesToHex, hexToBytes, toData, utf8ToBytes} from "@xchain/utils";
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from "vitest";
import {ForkError, ForkErrorCode} from "../../src/fork/errors.ts";
import {ForkSource} from "../../src/fork/forkSource.ts";
import {forkSourceBase} from "../../src/fork/sourceBase.ts";
import {defaultForkSourceOptions, defaultStateOptions, type ForkSourceOptions, StateDatabase} from "../../src/index.ts";
import {common} from "../helpers.ts";

const BRIDGE = "0x0000000000000000000000000000000001000006";
// The Bridge's plain keys: the ASCII of the name left-padded to 32 bytes (DataWord.fromString).
const CHAIN_HEAD = toData(bigIntToFixedBytes(BigInt(toData(utf8ToBytes("blockStoreChainHead"))), 32));
const FEE_PER_KB = toData(bigIntToFixedBytes(BigInt(toData(utf8ToBytes("feePerKb"))), 32));
// A StoredBlock V2: 32-byte chain work ‖ 4-byte height ‖ 80-byte Bitcoin header.
const STORED_BLOCK = `0x${"00".repeat(31)}02${"00000000"}${"ab".repeat(80)}`;
const BALANCE = 0x1b1ae4d6e2ef5000000n;
const forkBlock = rskjForkBlock();

const upstream = new FakeBlockEndpoint();
let url = "";
const sources: ForkSource[] = [];

/** Serves rskj's state, with rsk_getStorageBytesAt enabled (`storage`) or disabled as rskj ships it. */
function serve(storage: Map<string, string> | undefined): void {
  serveRskjState(upstream, {block: forkBlock, storage, balance: BALANCE});
}

/** A source on `cacheDir` at the fork block, closed after the test. */
async function open(cacheDir: string, opts: Partial<ForkSourceOptions> = {}): Promise<ForkSource> {
  const options = {...defaultForkSourceOptions, url, block: forkBlock.number, cacheDir, retries: 1};
  sources.push(await ForkSource.open({...options, ...opts}));
  return sources[sources.length - 1] as ForkSource;
}

const cacheDir = () => mkdtempSync(join(tmpdir(), "xchain-native-storage-"));
const bridge = hexToBytes(BRIDGE);
const rawCalls = () => upstream.calls.filter((c) => c.method === "rsk_getStorageBytesAt");

/** The ForkError `read` rejects with. */
const failure = (read: Promise<unknown>): Promise<ForkError> =>
  read.then(
    () => expect.unreachable("the read succeeded"),
    (e: unknown) => {
      expect(e).toBeInstanceOf(ForkError);
      return e as ForkError;
    },
  );

beforeAll(async () => {
  url = await upstream.start();
});

afterAll(() => upstream.stop());

beforeEach(() => {
  upstream.reset();
  serve(
    new Map([
      [CHAIN_HEAD, STORED_BLOCK],
      [FEE_PER_KB, "0x82c350"],
    ]),
  );
});

afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
});

describe("ForkSource.storageBytes against an rskj upstream", () => {
  it("reads values longer than a word at the fork block, caches them, and answers them offline", async () => {
    const dir = cacheDir();
    const source = await open(dir);
    expect(source.dialect).toBe("rskj");
    const head = await source.storageBytes(bridge, hexToBytes(CHAIN_HEAD));
    expect(toData(head)).toBe(STORED_BLOCK);
    expect(head.length).toBe(116);
    expect(toData(await source.storageBytes(bridge, hexToBytes(FEE_PER_KB)))).toBe("0x82c350");
    expect((await source.storageBytes(bridge, new Uint8Array(32).fill(7))).length).toBe(0);
    // Pinned at the fork block by hash (EIP-1898), the key as a 32-byte word.
    expect(rawCalls()[0]?.params).toEqual([BRIDGE, CHAIN_HEAD, {blockHash: forkBlock.rpcJson.hash}]);
    expect(rawCalls()).toHaveLength(3);

    // Read again: from the cache. Offline on the same cache: the cache alone, and a miss names the key.
    expect(toData(await source.storageBytes(bridge, hexToBytes(CHAIN_HEAD)))).toBe(STORED_BLOCK);
    expect(rawCalls()).toHaveLength(3);
    await source.close();
    sources.pop();
    const offline = await open(dir, {offline: true});
    expect(toData(await offline.storageBytes(bridge, hexToBytes(CHAIN_HEAD)))).toBe(STORED_BLOCK);
    expect((await offline.storageBytes(bridge, new Uint8Array(32).fill(7))).length).toBe(0);
    const miss = await failure(offline.storageBytes(bridge, new Uint8Array(32).fill(8)));
    expect(miss.type.code).toBe(ForkErrorCode.OFFLINE_MISS);
    expect(miss.message).toContain(`storage bytes ${BRIDGE} key 0x${"08".repeat(32)}`);
    expect(rawCalls()).toHaveLength(3);
  });

  it("a disabled rsk_getStorageBytesAt is reported naming the method and the upstream, and not remembered", async () => {
    serve(undefined);
    const source = await open(cacheDir());
    const refused = await failure(source.storageBytes(bridge, hexToBytes(CHAIN_HEAD)));
    expect(refused.type).toEqual({
      code: ForkErrorCode.UPSTREAM_METHOD_UNAVAILABLE,
      url,
      key: `storage bytes ${BRIDGE} key ${CHAIN_HEAD}`,
      method: "rsk_getStorageBytesAt",
      rpcMessage: "the method rsk_getStorageBytesAt does not exist/is not available",
    });
    expect(refused.message).toBe(
      `upstream ${url} does not serve rsk_getStorageBytesAt, which reading storage bytes ${BRIDGE} key ${CHAIN_HEAD} ` +
        `needs (rskj disables it by default: enable it in the upstream's rpc.modules, module "rsk"); it answered: ` +
        "the method rsk_getStorageBytesAt does not exist/is not available",
    );
    // Once the upstream serves it, the next read gets the value.
    serve(new Map([[CHAIN_HEAD, STORED_BLOCK]]));
    expect(toData(await source.storageBytes(bridge, hexToBytes(CHAIN_HEAD)))).toBe(STORED_BLOCK);
  });

  it("an answer that is not hex data is refused with the key", async () => {
    upstream.methods.set("rsk_getStorageBytesAt", () => "0xabc");
    const source = await open(cacheDir());
    const bad = await failure(source.storageBytes(bridge, hexToBytes(FEE_PER_KB)));
    expect(bad.type.code).toBe(ForkErrorCode.UPSTREAM_BAD_ANSWER);
    expect(bad.message).toBe(
      `upstream ${url}: reading storage bytes ${BRIDGE} key ${FEE_PER_KB}: the stored bytes is not hex data: "0xabc"`,
    );
  });
});

describe("the Bridge's words through the forked state (eth_getStorageAt on a fork)", () => {
  it("reads a 32-byte key of a native contract from the base: the upstream's word, cut to 32 bytes as rskj cuts it", async () => {
    const source = await open(cacheDir());
    const base = forkSourceBase(source);
    const store = new MemoryStore();
    const state = new StateDatabase(defaultStateOptions, {store, base: {current: () => base}});
    const start = await state.forkRoot(base.id);
    await store.write(new WriteBatch().append(start.writes));
    const reader = await state.reader(start.root, common);
    expect((await reader.getAccount(bridge))?.balance).toBe(BALANCE);
    expect(bytesToHex(await reader.getStorage(bridge, hexToBytes(CHAIN_HEAD)))).toBe(STORED_BLOCK.slice(2, 66));
    expect(await reader.getStorage(bridge, hexToBytes(FEE_PER_KB))).toEqual(hexToBytes(`0x${"00".repeat(29)}82c350`));
    const asked = upstream.calls.filter((c) => c.method === "eth_getStorageAt").map((c) => c.params);
    expect(asked).toEqual([
      [BRIDGE, CHAIN_HEAD, {blockHash: forkBlock.rpcJson.hash}],
      [BRIDGE, FEE_PER_KB, {blockHash: forkBlock.rpcJson.hash}],
    ]);
  });
});

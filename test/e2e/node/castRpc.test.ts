// End-to-end: Foundry's `cast` (the real binary, from the npm package @foundry-rs/cast) sends the
// anvil_, hardhat_ and evm_ controls with `cast rpc` to a dev node (test/e2e/support/devClients.ts),
// and reads their effect back with cast's own readers (balance, block-number, block, nonce, code,
// storage, call, send). With XCHAIN_CLIENT_TEST_TARGET=anvil the same assertions run against anvil.
import {execFile} from "node:child_process";
import {randomBytes} from "node:crypto";
import {mkdtempSync} from "node:fs";
import {createRequire} from "node:module";
import {tmpdir} from "node:os";
import {dirname, join} from "node:path";
import {promisify} from "node:util";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {type DevTarget, startDevTarget} from "../support/devClients.ts";

// The npm package's `cast` is a Node wrapper that does not pass the binary's exit code on: run the
// platform package's binary itself.
const PLATFORMS: Record<string, string> = {
  "linux-x64": "linux-amd64",
  "linux-arm64": "linux-arm64",
  "darwin-x64": "darwin-amd64",
  "darwin-arm64": "darwin-arm64",
  "win32-x64": "win32-amd64",
};
const platform = PLATFORMS[`${process.platform}-${process.arch}`];
const CAST = join(
  dirname(createRequire(import.meta.url).resolve(`@foundry-rs/cast-${platform}/package.json`)),
  "bin",
  process.platform === "win32" ? "cast.exe" : "cast",
);
// Runtime code that returns storage slot 0 as one word: SLOAD(0), MSTORE(0), RETURN(0, 32).
const RETURN_SLOT0 = "0x60005460005260206000f3";
const run = promisify(execFile);

let target: DevTarget;
let funded: string;
// No foundry.toml of the user's is read: cast runs in an empty directory.
const cwd = mkdtempSync(join(tmpdir(), "xchain-cast-"));

/** Runs `cast args…` against the target and returns what it printed, trimmed. */
async function cast(...args: string[]): Promise<string> {
  const {stdout} = await run(CAST, args, {cwd, env: {...process.env, ETH_RPC_URL: target.url, NO_COLOR: "1"}});
  return stdout.trim();
}

/** `cast rpc method params…`, its JSON answer parsed. */
async function castRpc(method: string, ...params: string[]): Promise<unknown> {
  return JSON.parse(await cast("rpc", method, ...params)) as unknown;
}

const blockNumber = async () => Number(await cast("block-number"));
const blockField = async (field: string, block = "latest") => cast("block", block, "--field", field);
/** A fresh address, lower case (no key needed: the controls and impersonation do not sign). */
const freshAddress = () => `0x${randomBytes(20).toString("hex")}`;

beforeAll(async () => {
  target = await startDevTarget();
  [funded] = (await castRpc("eth_accounts")) as [string];
});

afterAll(async () => {
  await target?.stop();
});

describe(`cast rpc against ${process.env.XCHAIN_CLIENT_TEST_TARGET ?? "xchain"}`, () => {
  it("anvil_setBalance, hardhat_setBalance and anvil_addBalance: cast balance", async () => {
    const address = freshAddress();
    expect(await castRpc("anvil_setBalance", address, "0x3e8")).toBeNull();
    expect(await cast("balance", address)).toBe("1000");
    await castRpc("hardhat_setBalance", address, "0x7d0");
    expect(await cast("balance", address)).toBe("2000");
    expect(await cast("balance", address, "--block", "pending")).toBe("2000");
    await castRpc("anvil_addBalance", address, "0x5");
    expect(await cast("balance", address)).toBe("2005");
  });

  it("anvil_setCode, anvil_setStorageAt and anvil_setNonce: cast code, storage, call and nonce", async () => {
    const address = freshAddress();
    await castRpc("anvil_setCode", address, RETURN_SLOT0);
    expect(await cast("code", address)).toBe(RETURN_SLOT0);
    const word = `0x${"2a".padStart(64, "0")}`;
    await castRpc("anvil_setStorageAt", address, "0x0", word);
    expect(await cast("storage", address, "0")).toBe(word);
    expect(await cast("call", address, "0x")).toBe(word);
    await castRpc("hardhat_setNonce", address, "0x9");
    expect(await cast("nonce", address)).toBe("9");
  });

  it("anvil_mine, hardhat_mine and evm_mine: cast block-number, and the interval between timestamps", async () => {
    const start = await blockNumber();
    await castRpc("anvil_mine", "0x3", "0x64");
    expect(await blockNumber()).toBe(start + 3);
    const [first, second, third] = await Promise.all([1, 2, 3].map((i) => blockField("timestamp", String(start + i))));
    expect(Number(second) - Number(first)).toBe(100);
    expect(Number(third) - Number(second)).toBe(100);
    await castRpc("hardhat_mine", "0x2");
    expect(await blockNumber()).toBe(start + 5);
    await castRpc("evm_mine");
    expect(await blockNumber()).toBe(start + 6);
  });

  it("evm_setNextBlockTimestamp and evm_increaseTime: the next block's timestamp", async () => {
    const next = Number(await blockField("timestamp")) + 1000;
    await castRpc("evm_setNextBlockTimestamp", String(next));
    await castRpc("evm_mine");
    expect(Number(await blockField("timestamp"))).toBe(next);

    await castRpc("evm_increaseTime", "0xe10");
    await castRpc("evm_mine");
    expect(Number(await blockField("timestamp"))).toBeGreaterThanOrEqual(next + 3600);
  });

  it("evm_snapshot/evm_revert and anvil_snapshot/anvil_revert: cast block-number and balance back", async () => {
    const address = freshAddress();
    for (const prefix of ["evm", "anvil"]) {
      await castRpc("anvil_setBalance", address, "0x1");
      const head = await blockNumber();
      const id = await castRpc(`${prefix}_snapshot`);
      expect(id).toMatch(/^0x[0-9a-f]+$/);
      await castRpc("anvil_setBalance", address, "0x2");
      await castRpc("anvil_mine", "0x4");
      expect(await castRpc(`${prefix}_revert`, id as string)).toBe(true);
      expect(await blockNumber()).toBe(head);
      expect(await cast("balance", address)).toBe("1");
      // A snapshot is used up by its revert.
      expect(await castRpc(`${prefix}_revert`, id as string)).toBe(false);
    }
  });

  it("anvil_impersonateAccount, stopImpersonatingAccount and autoImpersonateAccount: cast send --unlocked", async () => {
    const impersonated = freshAddress();
    const to = freshAddress();
    await castRpc("anvil_setBalance", impersonated, "0xde0b6b3a7640000");
    const send = (from: string) => cast("send", "--unlocked", "--from", from, "--legacy", to, "--value", "7", "--json");
    expect(await castRpc("anvil_impersonateAccount", impersonated)).toBeNull();
    const receipt = JSON.parse(await send(impersonated)) as {status: string; from: string};
    expect(receipt).toMatchObject({status: "0x1", from: impersonated});
    expect(await cast("balance", to)).toBe("7");

    await castRpc("anvil_stopImpersonatingAccount", impersonated);
    await expect(send(impersonated)).rejects.toThrow();
    await castRpc("anvil_autoImpersonateAccount", "true");
    await send(impersonated);
    expect(await cast("balance", to)).toBe("14");
    await castRpc("anvil_autoImpersonateAccount", "false");
    await expect(send(impersonated)).rejects.toThrow();
    expect(await cast("nonce", impersonated)).toBe("2");
  });

  it("evm_setAutomine, anvil_getAutomine, anvil_dropTransaction and anvil_dropAllTransactions: the pool", async () => {
    const to = freshAddress();
    await castRpc("evm_setAutomine", "false");
    try {
      expect(await castRpc("anvil_getAutomine")).toBe(false);
      const send = () => cast("send", "--unlocked", "--from", funded, "--legacy", "--async", to, "--value", "1");
      const first = await send();
      expect(await castRpc("eth_getTransactionByHash", first)).toMatchObject({hash: first, blockNumber: null});
      // anvil answers the dropped hash, Hardhat true.
      expect([first, true]).toContainEqual(await castRpc("anvil_dropTransaction", first));
      expect(await castRpc("eth_getTransactionByHash", first)).toBeNull();

      const second = await send();
      await castRpc("anvil_dropAllTransactions");
      expect(await castRpc("eth_getTransactionByHash", second)).toBeNull();
      await castRpc("evm_mine");
      expect(await cast("balance", to)).toBe("0");
    } finally {
      await castRpc("evm_setAutomine", "true");
    }
    expect(await castRpc("anvil_getAutomine")).toBe(true);
  });

  it("anvil_setCoinbase and evm_setBlockGasLimit: the next block's miner and gas limit", async () => {
    const coinbase = freshAddress();
    await castRpc("anvil_setCoinbase", coinbase);
    // Within Rootstock's band (a block moves its parent's gas limit by at most 1/1024), which xchain sets
    // exactly; farther it steps toward the value (docs/rpc.md §4.10 "Environment").
    const gasLimit = Number(await blockField("gasLimit")) + 1_000;
    await castRpc("evm_setBlockGasLimit", `0x${gasLimit.toString(16)}`);
    await castRpc("evm_mine");
    expect((await blockField("miner")).toLowerCase()).toBe(coinbase);
    expect(await blockField("gasLimit")).toBe(String(gasLimit));
  });

  it("anvil_nodeInfo and anvil_metadata: the head and the chain id", async () => {
    const head = await blockNumber();
    const hash = await blockField("hash");
    const info = (await castRpc("anvil_nodeInfo")) as {currentBlockNumber: string; currentBlockHash: string};
    expect(Number(info.currentBlockNumber)).toBe(head);
    expect(info.currentBlockHash).toBe(hash);
    const metadata = (await castRpc("anvil_metadata")) as Record<string, unknown>;
    expect(metadata).toMatchObject({chainId: 33, latestBlockNumber: head, latestBlockHash: hash});
    expect(metadata.clientVersion).toBe(await castRpc("web3_clientVersion"));
  });

  it("anvil_dumpState, anvil_reset and anvil_loadState: cast block-number 0, then the dumped balance back", async () => {
    const address = freshAddress();
    await castRpc("anvil_setBalance", address, "0x4d2");
    const dump = (await castRpc("anvil_dumpState")) as string;
    expect(dump).toMatch(/^0x[0-9a-f]+$/);
    await castRpc("anvil_reset");
    expect(await blockNumber()).toBe(0);
    expect(await cast("balance", address)).toBe("0");
    expect(await castRpc("anvil_loadState", dump)).toBe(true);
    expect(await cast("balance", address)).toBe("1234");
  });
});

// The keystore through a running regtest node (docs/protocol/keystore.md): keyfiles written with
// geth's standard scrypt parameters, read back by ethers, and keyfiles from ethers unlocked after a restart.
import {readdirSync, readFileSync, statSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {encryptKeystoreJson, Wallet} from "ethers";
import {afterAll, describe, expect, it} from "vitest";
import {JsonRpcFault, rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const COW = "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826";
const KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const ADDRESS = "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23";

const running: RunningNode[] = [];
afterAll(async () => {
  for (const node of running) await node.stop();
});

async function fault(work: Promise<unknown>): Promise<JsonRpcFault> {
  try {
    await work;
  } catch (e) {
    if (e instanceof JsonRpcFault) return e;
    throw e;
  }
  throw new Error("expected a JSON-RPC error");
}

// A keyfile's scrypt takes a second or more, several on a loaded machine: the request timeout (5 s by
// default) must not decide the answer.
const NO_SHORT_TIMEOUT = ["--rpc.requestTimeoutMs", "120000"];

describe("keystore (personal_*)", () => {
  it("imports, unlocks, locks and sends; its keyfile decrypts in ethers; ethers' keyfile unlocks after a restart", async () => {
    const dataDir = tempDataDir();
    let node = await startNode(NO_SHORT_TIMEOUT, dataDir);
    running.push(node);
    let url = node.httpUrl;

    expect(await rpc(url, "personal_importRawKey", [KEY, "pw"])).toBe(ADDRESS);
    const dir = join(dataDir, "keystore");
    const [name] = readdirSync(dir);
    expect(statSync(join(dir, name!)).mode & 0o777).toBe(0o600);
    const json = readFileSync(join(dir, name!), "utf8");
    expect(JSON.parse(json).crypto.kdfparams).toMatchObject({n: 262_144, r: 8, p: 1});
    expect((await Wallet.fromEncryptedJson(json, "pw")).address.toLowerCase()).toBe(ADDRESS);

    // Unlocked for 30 minutes: an account of eth_accounts that eth_sendTransaction signs for.
    expect(await rpc<string[]>(url, "eth_accounts")).toContain(ADDRESS);
    const fund = await rpc<string>(url, "eth_sendTransaction", [{from: COW, to: ADDRESS, value: "0xde0b6b3a7640000"}]);
    await waitForReceipt(url, fund);
    const fromUnlocked = await rpc<string>(url, "eth_sendTransaction", [{from: ADDRESS, to: COW, value: "0x1"}]);
    await waitForReceipt(url, fromUnlocked);

    expect(await rpc(url, "personal_lockAccount", [ADDRESS])).toBe(true);
    expect(await rpc<string[]>(url, "eth_accounts")).not.toContain(ADDRESS);
    expect((await fault(rpc(url, "eth_sendTransaction", [{from: ADDRESS, to: COW}]))).code).toBe(-32000);
    expect(await fault(rpc(url, "personal_unlockAccount", [ADDRESS, "wrong", 60]))).toMatchObject({
      code: -32000,
      message: "wrong passphrase",
    });
    expect(readFileSync(join(dir, name!), "utf8")).toBe(json);
    const sent = await rpc<string>(url, "personal_sendTransaction", [{from: ADDRESS, to: COW, value: "0x1"}, "pw"]);
    await waitForReceipt(url, sent);
    expect(await rpc<string[]>(url, "eth_accounts")).not.toContain(ADDRESS);

    // A keyfile ethers wrote (lighter scrypt for speed), found at the next start.
    const other = new Wallet(Wallet.createRandom().privateKey);
    writeFileSync(join(dir, "from-ethers.json"), await encryptKeystoreJson(other, "ethers", {scrypt: {N: 1024}}));
    expect((await node.stop()).code).toBe(0);
    node = await startNode(NO_SHORT_TIMEOUT, dataDir);
    running.push(node);
    url = node.httpUrl;
    const listed = await rpc<string[]>(url, "personal_listAccounts");
    expect(listed.slice(0, 2).sort()).toEqual([ADDRESS, other.address.toLowerCase()].sort());
    expect(await rpc(url, "personal_unlockAccount", [other.address, "ethers", 0])).toBe(true);
    expect(await rpc<string[]>(url, "eth_accounts")).toContain(other.address.toLowerCase());
  }, 120_000);
});

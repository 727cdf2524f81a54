// End-to-end: authorized votes to the Bridge counted as rskj counts them (docs/protocol/native-contracts.md
// §10.12), as a developer testing PowPeg tooling on regtest sends them: ethers wallets of rskj's public
// regtest authorizer keys (keccak-256 of "auth-fee-per-kb", "auth-lock-whitelist"), answers decoded with
// @rsksmart/rsk-precompiled-abis, the stored bytes read with xchain_getStorageBytesAt.
import {createRequire} from "node:module";
import {concatBytes, hexToBytes, sha256d} from "@xchain/utils";
import {Contract, encodeBase58, id, JsonRpcProvider, parseEther, Wallet} from "ethers";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const require = createRequire(import.meta.url);
const {bridge} = require("@rsksmart/rsk-precompiled-abis") as {bridge: {abi: unknown[]; address: string}};
const BRIDGE = bridge.address;

/** A regtest P2PKH address (version 111) of a hash160 of one repeated byte. */
function btcAddress(byte: number): string {
  const payload = Uint8Array.of(111, ...new Uint8Array(20).fill(byte));
  return encodeBase58(concatBytes(payload, sha256d(payload).subarray(0, 4)));
}
/** The ASCII of a plain Bridge storage key, left-padded to a word (docs/protocol/native-contracts.md §10.4). */
const plainKey = (name: string) => `0x${Buffer.from(name).toString("hex").padStart(64, "0")}`;

let node: RunningNode;
let provider: JsonRpcProvider;
/** A funded dev account and rskj's regtest authorizers: wallets of keccak-256 of their names. */
let cow: Wallet;
let feeAuthorizer: Wallet;
let whitelistAuthorizer: Wallet;
let bridgeContract: Contract;

beforeAll(async () => {
  node = await startNode(["--p2p.enabled", "false"]);
  provider = new JsonRpcProvider(node.httpUrl, undefined, {pollingInterval: 50, cacheTimeout: -1});
  [cow, feeAuthorizer, whitelistAuthorizer] = ["cow", "auth-fee-per-kb", "auth-lock-whitelist"].map(
    (name) => new Wallet(id(name), provider),
  ) as [Wallet, Wallet, Wallet];
  bridgeContract = new Contract(BRIDGE, bridge.abi as never, provider);
  for (const authorizer of [feeAuthorizer, whitelistAuthorizer]) {
    await (await cow.sendTransaction({to: authorizer.address, value: parseEther("1"), type: 0})).wait();
  }
});

afterAll(async () => {
  provider?.destroy();
  await node?.stop();
});

const storedBytes = (name: string) =>
  rpc<string>(node.httpUrl, "xchain_getStorageBytesAt", [BRIDGE, plainKey(name), "latest"]);

/** Sends `name(args)` from `wallet` as a transaction to the Bridge and answers its receipt. */
async function send(wallet: Wallet, name: string, args: unknown[]) {
  const fn = bridgeContract.connect(wallet).getFunction(name);
  return (await (await fn.send(...args, {type: 0, gasLimit: 200_000})).wait())!;
}
/** What `name(args)` answers in an eth_call from `wallet`. */
const answer = (wallet: Wallet, name: string, args: unknown[]) =>
  bridgeContract
    .connect(wallet)
    .getFunction(name)
    .staticCall(...args);
const get = (name: string, ...args: unknown[]) => bridgeContract.getFunction(name).staticCall(...args);

describe("voteFeePerKbChange", () => {
  it("anyone but the authorizer gets -10 and the fee stays", async () => {
    expect(await answer(cow, "voteFeePerKbChange", [200_000])).toBe(-10n);
    const receipt = await send(cow, "voteFeePerKbChange", [200_000]);
    // Paid: intrinsic 21,228 + the price 10,000 + 2 per byte of 36.
    expect([receipt.status, receipt.gasUsed]).toEqual([1, 31_300n]);
    expect(await get("getFeePerKb")).toBe(100_000n);
  });

  it("the authorizer's vote changes getFeePerKb; a free transaction, stored as rskj stores it", async () => {
    expect(await answer(feeAuthorizer, "voteFeePerKbChange", [200_000])).toBe(1n);
    const receipt = await send(feeAuthorizer, "voteFeePerKbChange", [200_000]);
    expect([receipt.status, receipt.gasUsed, receipt.logs]).toEqual([1, 21_228n, []]);
    expect(await get("getFeePerKb")).toBe(200_000n);
    expect(await storedBytes("feePerKb")).toBe("0x83030d40");
    expect(await storedBytes("feePerKbElection")).toBe("0xc0");
    // A fee above regtest's maximum (5,000,000) answers -2.
    expect(await answer(feeAuthorizer, "voteFeePerKbChange", [5_000_001])).toBe(-2n);
  });
});

describe("the lock whitelist", () => {
  const ONE_OFF = btcAddress(0x11);
  const UNLIMITED = btcAddress(0x22);

  it("anyone but the authorizer gets -10 and the whitelist stays empty", async () => {
    expect(await answer(cow, "addUnlimitedLockWhitelistAddress", [UNLIMITED])).toBe(-10n);
    await send(cow, "addUnlimitedLockWhitelistAddress", [UNLIMITED]);
    expect(await get("getLockWhitelistSize")).toBe(0n);
  });

  it("the authorizer's additions show in the getters, in hash160 order", async () => {
    const unlimited = await send(whitelistAuthorizer, "addUnlimitedLockWhitelistAddress", [UNLIMITED]);
    expect(unlimited.gasUsed).toBe(22_008n);
    await send(whitelistAuthorizer, "addOneOffLockWhitelistAddress", [ONE_OFF, 1_000_000]);
    expect(await answer(whitelistAuthorizer, "addOneOffLockWhitelistAddress", [ONE_OFF, 5])).toBe(-1n);
    expect(await get("getLockWhitelistSize")).toBe(2n);
    expect(await get("getLockWhitelistAddress", 0)).toBe(ONE_OFF);
    expect(await get("getLockWhitelistAddress", 1)).toBe(UNLIMITED);
    expect(await get("getLockWhitelistEntryByAddress", ONE_OFF)).toBe(1_000_000n);
    expect(await get("getLockWhitelistEntryByAddress", UNLIMITED)).toBe(0n);
    expect(await storedBytes("lockWhitelist")).toBe(`0xde94${"11".repeat(20)}830f4240847fffffff`);
    expect(await storedBytes("unlimitedLockWhitelist")).toBe(`0xd594${"22".repeat(20)}`);
  });

  it("a removal takes the entry out; removing it again answers -1", async () => {
    expect(await answer(whitelistAuthorizer, "removeLockWhitelistAddress", [ONE_OFF])).toBe(1n);
    await send(whitelistAuthorizer, "removeLockWhitelistAddress", [ONE_OFF]);
    expect(await answer(whitelistAuthorizer, "removeLockWhitelistAddress", [ONE_OFF])).toBe(-1n);
    expect(await get("getLockWhitelistSize")).toBe(1n);
    expect(await get("getLockWhitelistAddress", 0)).toBe(UNLIMITED);
    expect(await get("getLockWhitelistEntryByAddress", ONE_OFF)).toBe(-1n);
  });

  it("setLockWhitelistDisableBlockDelay: once, then -1", async () => {
    await send(whitelistAuthorizer, "setLockWhitelistDisableBlockDelay", [100]);
    expect(await answer(whitelistAuthorizer, "setLockWhitelistDisableBlockDelay", [100])).toBe(-1n);
    // The light client is at Bitcoin regtest's genesis (height 0): disabled above height 100 (0x64).
    expect(hexToBytes((await storedBytes("lockWhitelist")).slice(2))).toEqual(Uint8Array.of(0xc1, 0x64));
  });
});

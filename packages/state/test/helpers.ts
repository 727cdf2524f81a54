import {mkdtempSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {type Common, createCustomCommon, Mainnet, type StateManagerInterface} from "@ethereumjs/common";
import {Address} from "@ethereumjs/util";
import {Bucket, LevelStore, WriteBatch} from "@xchain/db";
import {bytesToHex} from "@xchain/utils";
import {afterEach} from "vitest";
import type {StateCommit} from "../src/index.ts";

/** A chain-33 Common as the tests of this package need it (execution supplies the real one). */
export const common: Common = createCustomCommon({chainId: 33}, Mainnet, {hardfork: "shanghai", eips: [1153, 5656]});

const open: LevelStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

/** A LevelStore in a fresh temporary directory (or at `path`), closed after the test. */
export async function openStore(path = mkdtempSync(join(tmpdir(), "xchain-state-"))): Promise<LevelStore> {
  const store = await LevelStore.open(path);
  open.push(store);
  return store;
}

/** Closes a store opened by `openStore` before the test ends (to reopen its directory). */
export async function closeStore(store: LevelStore): Promise<void> {
  open.splice(open.indexOf(store), 1);
  await store.close();
}

/** Writes a state commit the way block import does: in one batch. */
export async function persist(store: LevelStore, commit: StateCommit): Promise<void> {
  await store.write(new WriteBatch().append(commit.writes));
}

/** Every entry of the stateTrie bucket as "key=value" hex, in key order. */
export async function dumpStateBucket(store: LevelStore): Promise<string[]> {
  const out: string[] = [];
  for await (const [key, value] of store.entries(Bucket.stateTrie)) out.push(`${bytesToHex(key)}=${bytesToHex(value)}`);
  return out;
}

/** A deterministic 20-byte address from a small number. */
export function addressOf(n: number): Uint8Array {
  const bytes = new Uint8Array(20);
  new DataView(bytes.buffer).setUint32(16, n + 1);
  bytes[0] = 0xaa;
  return bytes;
}

/** A 32-byte storage slot from a small number. */
export function slotOf(n: number): Uint8Array {
  const bytes = new Uint8Array(32);
  bytes[31] = n;
  return bytes;
}

/** Sets the balance and nonce of an account (created when missing) through a session's state manager. */
export async function setAccount(
  sm: StateManagerInterface,
  address: Uint8Array,
  balance: bigint,
  nonce = 0n,
): Promise<void> {
  await sm.modifyAccountFields(new Address(address), {balance, nonce});
}

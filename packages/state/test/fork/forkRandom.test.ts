/**
 * Random blocks (balances, code, storage written and zeroed, accounts deleted and re-created) run
 * on a forked state over a real local state and on the ordinary state it forks: every account, code
 * and slot reads the same after every block, and the delta root depends on the writes only (a cold
 * database that read everything first gives the same root). No random op runs in a reverted
 * checkpoint: the ordinary state keeps a deletion's wiped storage through a revert (ethereumjs's
 * storage cache does not journal `clearStorage`), so it cannot be the reference there;
 * forkState.test.ts checks that case on the fork by itself.
 */
import type {StateManagerInterface} from "@ethereumjs/common";
import {Address} from "@ethereumjs/util";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  defaultStateOptions,
  EMPTY_TRIE_ROOT,
  forkBaseId,
  readerBase,
  StateDatabase,
  type StateReader,
  type StateSource,
} from "../../src/index.ts";
import {addressOf, common, openStore, persist, slotOf} from "../helpers.ts";
import {prng, randomOp, runBlock} from "../randomOps.ts";

const ADDRESSES = Array.from({length: 40}, (_, i) => addressOf(i));
const SLOTS = Array.from({length: 12}, (_, i) => slotOf(i));

/** Every account, code and slot of the addresses random ops touch. */
async function snapshot(reader: StateReader): Promise<string[]> {
  const out: string[] = [];
  for (const address of ADDRESSES) {
    const account = await reader.getAccount(address);
    const code = bytesToHex(await reader.getCode(address));
    const slots = await Promise.all(SLOTS.map(async (slot) => bytesToHex(await reader.getStorage(address, slot))));
    out.push(
      account === undefined
        ? "-"
        : `${account.nonce}/${account.balance}/${bytesToHex(account.codeHash)}/${code}/${slots}`,
    );
  }
  return out;
}

/** Reads everything through a state manager (the reads a block might do), writing nothing. */
async function readAll(sm: StateManagerInterface): Promise<void> {
  for (const bytes of ADDRESSES) {
    const address = new Address(bytes);
    await sm.getAccount(address);
    await sm.getCode(address);
    for (const slot of SLOTS) await sm.getStorage(address, slot);
  }
}

async function block(source: StateSource, root: Uint8Array, run: (sm: StateManagerInterface) => Promise<void>) {
  const session = await source.openSession(root, common);
  await run(session.stateManager);
  const commit = await session.commit();
  session.release();
  return commit;
}

describe("a forked state under random blocks", () => {
  it.each([1, 2, 3])("reads as the ordinary state does, block after block (seed %i)", async (seed) => {
    // The generator's high bits: its low bits repeat with a short period, so `% n` of the raw
    // value never draws some ops in a row (account deletions, for one).
    const raw = prng(seed);
    const random = (n: number) => Math.floor((raw(2 ** 30) / 2 ** 30) * n);
    const baseStore = await openStore();
    const ordinary = new StateDatabase(defaultStateOptions, {store: baseStore});
    let root = EMPTY_TRIE_ROOT;
    for (let n = 1; n <= 4; n++) {
      const ops = Array.from({length: 40}, () => randomOp(random, n));
      const commit = await block(ordinary, root, (sm) => runBlock(sm, ops, []));
      await persist(baseStore, commit);
      root = commit.root;
    }
    const base = readerBase(await ordinary.reader(root, common), forkBaseId(33n, new Uint8Array(32).fill(seed)));
    const forkStore = await openStore();
    const holder = {current: () => base};
    const forked = new StateDatabase(defaultStateOptions, {store: forkStore, base: holder});
    const start = await forked.forkRoot(base.id);
    await persist(forkStore, start);
    let forkRoot = start.root;
    expect(await snapshot(await forked.reader(forkRoot, common))).toEqual(
      await snapshot(await ordinary.reader(root, common)),
    );

    for (let n = 5; n <= 14; n++) {
      const ops = Array.from({length: 30}, () => randomOp(random, n));
      const expected = await block(ordinary, root, (sm) => runBlock(sm, ops, []));
      const actual = await block(forked, forkRoot, (sm) => runBlock(sm, ops, []));
      // The same writes after reading everything, on a database with cold caches: the same root.
      const cold = new StateDatabase(defaultStateOptions, {store: forkStore, base: holder});
      const again = await block(cold, forkRoot, async (sm) => {
        await readAll(sm);
        await runBlock(sm, ops, []);
        await readAll(sm);
      });
      expect(again.root).toEqual(actual.root);
      await persist(baseStore, expected);
      await persist(forkStore, actual);
      root = expected.root;
      forkRoot = actual.root;
      expect(await snapshot(await forked.reader(forkRoot, common))).toEqual(
        await snapshot(await ordinary.reader(root, common)),
      );
    }
  });
});

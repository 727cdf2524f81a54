/** Random state changes, run alike on the state under test and a reference (completeness and fork tests). */
import type {StateManagerInterface} from "@ethereumjs/common";
import {Address} from "@ethereumjs/util";
import {addressOf, slotOf} from "./helpers.ts";

/** A seeded generator, so a failure reproduces. */
export function prng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

export type Op = (sm: StateManagerInterface) => Promise<void>;

/** A random state change: balances, code, storage writes and deletions, account deletions. */
export function randomOp(random: (n: number) => number, block: number): Op {
  const address = new Address(addressOf(random(40)));
  switch (random(6)) {
    case 0: {
      const code = Uint8Array.of(0x60, block, 0x60, random(256), 0x55);
      return (sm) => sm.putCode(address, code);
    }
    case 1:
    case 2: {
      const slot = slotOf(random(12));
      const value = random(4) === 0 ? new Uint8Array(0) : Uint8Array.of(block, random(256));
      return async (sm) => {
        if ((await sm.getAccount(address)) === undefined) await sm.modifyAccountFields(address, {balance: 1n});
        await sm.putStorage(address, slot, value);
      };
    }
    case 3:
      return (sm) => sm.deleteAccount(address);
    default: {
      const balance = BigInt(random(1_000_000));
      return (sm) => sm.modifyAccountFields(address, {balance});
    }
  }
}

/** Applies ops inside a block-wide checkpoint, with one nested checkpoint that is reverted. */
export async function runBlock(sm: StateManagerInterface, ops: Op[], reverted: Op[]): Promise<void> {
  await sm.checkpoint();
  for (const op of ops.slice(0, ops.length / 2)) await op(sm);
  await sm.checkpoint();
  for (const op of reverted) await op(sm);
  await sm.revert();
  for (const op of ops.slice(ops.length / 2)) await op(sm);
  await sm.commit();
}

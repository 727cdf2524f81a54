/**
 * The blocks the sync tests share, built once per test file: `main`, 60 blocks from genesis (a
 * transfer every third block), `alt`, 30 blocks branching off main's block 10 (lighter than main),
 * and `side`, 5 blocks branching off main's block 20.
 */
import type {Block} from "@xchain/primitives";
import type {ChainBuilder} from "@xchain/test-utils";
import {cows, newBuilder, transfer} from "./testNode.ts";

export interface Fixture {
  builder: ChainBuilder;
  /** main[i] is block i + 1. */
  main: Block[];
  /** alt[i] is block 11 + i, on main's block 10. */
  alt: Block[];
  /** side[i] is block 21 + i, on main's block 20. */
  side: Block[];
}

const OTHER_COINBASE = Uint8Array.from({length: 20}, (_, i) => (i === 19 ? 2 : 0));
const SIDE_COINBASE = Uint8Array.from({length: 20}, (_, i) => (i === 19 ? 3 : 0));

let built: Promise<Fixture> | undefined;

/** The shared blocks (built on first use). */
export function fixture(): Promise<Fixture> {
  built ??= build();
  return built;
}

async function build(): Promise<Fixture> {
  const builder = await newBuilder();
  const alice = cows[0]!;
  const main: Block[] = [];
  let nonce = 0n;
  for (let n = 1; n <= 60; n++) {
    const transactions = n % 3 === 0 ? [transfer(alice, nonce++)] : [];
    main.push(await builder.buildBlock({parent: main.at(-1) ?? builder.genesis, transactions}));
  }
  const alt: Block[] = [];
  for (let n = 11; n <= 40; n++) {
    alt.push(await builder.buildBlock({parent: alt.at(-1) ?? main[9]!, coinbase: OTHER_COINBASE}));
  }
  const side: Block[] = [];
  for (let n = 21; n <= 25; n++) {
    side.push(await builder.buildBlock({parent: side.at(-1) ?? main[19]!, coinbase: SIDE_COINBASE}));
  }
  return {builder, main, alt, side};
}

/**
 * `xchain db verify`'s check of the flat state (docs/operations.md §13): when it says it is complete,
 * every entry is compared with the trie at its root, in key order, both walked in steps.
 */
import {Bucket, type KeyValueStore} from "@xchain/db";
import {bytesToHex, compareBytes, equalBytes} from "@xchain/utils";
import type {TrieNodeSource} from "../trieLookup.ts";
import {decodeFlatMeta, FLAT_META_KEY} from "./flatMeta.ts";
import {flatEntriesAfter} from "./trieRange.ts";

/** What the check found. */
export interface FlatVerification {
  /** none: no flat state; generating: not complete, not read, not checked; complete: checked. */
  phase: "none" | "generating" | "complete";
  /** The root it describes, hex. */
  root?: string;
  /** Entries compared. */
  checked: number;
  /** The first keys (hex) whose entry differs from the trie's, missing or extra; empty when exact. */
  mismatches: string[];
}

const STEP = 4096;
const MAX_REPORTED = 10;

/** Compares the flat state in `store` with the trie at its root (read from `nodes`). */
export async function verifyFlatState(store: KeyValueStore, nodes: TrieNodeSource): Promise<FlatVerification> {
  const meta = decodeFlatMeta(await store.get(Bucket.flatState, FLAT_META_KEY));
  if (meta === undefined) return {phase: "none", checked: 0, mismatches: []};
  const root = bytesToHex(meta.root);
  if (!meta.complete) return {phase: "generating", root, checked: 0, mismatches: []};
  const mismatches: string[] = [];
  const flat = store.entries(Bucket.flatState, {gte: Uint8Array.of(0)})[Symbol.asyncIterator]();
  let stored = await flat.next();
  let checked = 0;
  let marker: Uint8Array | undefined;
  const mismatch = (key: Uint8Array) => {
    if (mismatches.length < MAX_REPORTED) mismatches.push(bytesToHex(key));
  };
  for (;;) {
    const range = await flatEntriesAfter(nodes, meta.root, marker, STEP);
    for (const [key, value] of range.entries) {
      // Entries of the flat state before this trie entry are not in the trie.
      while (!stored.done && compareBytes(stored.value[0], key) < 0) {
        mismatch(stored.value[0]);
        stored = await flat.next();
      }
      if (stored.done || !equalBytes(stored.value[0], key) || !equalBytes(stored.value[1], value)) mismatch(key);
      if (!stored.done && equalBytes(stored.value[0], key)) stored = await flat.next();
      checked++;
    }
    if (range.exhausted) break;
    marker = range.entries.at(-1)?.[0];
  }
  for (; !stored.done; stored = await flat.next()) mismatch(stored.value[0]);
  await flat.return?.();
  return {phase: "complete", root, checked, mismatches};
}

/** The short forms the node's log lines print: hashes, peer ids, durations and amounts. */
import {bytesToHex} from "@xchain/utils";

/** `0x` and the first 4 and last 2 bytes of a hash, enough to tell blocks apart in a log (`0x1a2b3c4d…9f8e`). */
export function shortHash(hash: Uint8Array): string {
  const hex = bytesToHex(hash);
  return `0x${hex.slice(0, 8)}…${hex.slice(-4)}`;
}

/**
 * A libp2p peer id cut to its end: every secp256k1 id starts with the same `16Uiu2HAm`, so the
 * last characters are the ones that differ (`…Xy3kQe9P`).
 */
export function shortPeerId(id: string): string {
  return id.length <= 10 ? id : `…${id.slice(-8)}`;
}

/** A duration for people: `850 ms`, `4.2 s`, `3 min`, `5 h`, `2 d`; negative (a block from the future) as `0 ms`. */
export function formatDuration(ms: number): string {
  const value = Math.max(0, ms);
  if (value < 1_000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1_000).toFixed(1)} s`;
  if (value < 3_600_000) return `${Math.round(value / 60_000)} min`;
  if (value < 86_400_000) return `${Math.round(value / 3_600_000)} h`;
  return `${Math.round(value / 86_400_000)} d`;
}

/** An integer with thousands separators (`1,234,567`). */
export function formatCount(value: number | bigint): string {
  return value.toLocaleString("en-US");
}

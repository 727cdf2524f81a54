/**
 * Log filter matching (docs/rpc.md §4.5): any of the addresses; topics by position, each null (any),
 * one value or a set (any of them); a filter with N positions needs logs with at least N topics,
 * as geth does. The bloom check is the fast negative test over a whole block.
 */
import {type Log, logsBloom} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import type {LogFilter} from "../types.ts";

/** A filter prepared for matching: its values and the bloom bits of each. */
export class CompiledLogFilter {
  private readonly addresses: readonly Uint8Array[];
  private readonly topics: readonly (readonly Uint8Array[] | undefined)[];
  private readonly addressMasks: readonly Uint8Array[];
  private readonly topicMasks: readonly (readonly Uint8Array[] | undefined)[];

  constructor(filter: LogFilter) {
    this.addresses = filter.addresses ?? [];
    // An empty set at a position matches anything there, like null (geth).
    this.topics = (filter.topics ?? []).map((t) => {
      if (t === null) return undefined;
      const set = t instanceof Uint8Array ? [t] : t;
      return set.length === 0 ? undefined : set;
    });
    this.addressMasks = this.addresses.map(bitsOf);
    this.topicMasks = this.topics.map((set) => set?.map(bitsOf));
  }

  /** False when the bloom proves that no log of the block matches. */
  mayMatch(bloom: Uint8Array): boolean {
    if (this.addressMasks.length > 0 && !this.addressMasks.some((m) => contains(bloom, m))) return false;
    return this.topicMasks.every((masks) => masks === undefined || masks.some((m) => contains(bloom, m)));
  }

  /** True when the log matches exactly. */
  matches(log: Log): boolean {
    if (this.addresses.length > 0 && !this.addresses.some((a) => equalBytes(a, log.address))) return false;
    if (this.topics.length > log.topics.length) return false;
    return this.topics.every(
      (set, i) => set === undefined || set.some((topic) => equalBytes(topic, log.topics[i] as Uint8Array)),
    );
  }
}

// The bloom of one value, computed once per filter: a block may hold it when all its bits are set.
function bitsOf(value: Uint8Array): Uint8Array {
  return logsBloom([{address: value, topics: [], data: new Uint8Array(0)}]);
}

function contains(bloom: Uint8Array, mask: Uint8Array): boolean {
  for (let i = 0; i < mask.length; i++) {
    const m = mask[i] as number;
    if (m !== 0 && ((bloom[i] as number) & m) !== m) return false;
  }
  return true;
}

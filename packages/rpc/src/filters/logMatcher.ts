/**
 * Log matching for filters and subscriptions (docs/rpc.md §4.5), the same rules as the chain's
 * eth_getLogs: any of the addresses; topics by position, null or an empty set for any, a set for
 * any of it; a filter with N positions needs logs with at least N topics (geth).
 */
import type {Log} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import type {LogMatchRequest} from "../params/filterObject.ts";

/** Whether `log` matches `filter`. */
export function logMatches(filter: LogMatchRequest, log: Log): boolean {
  const {addresses, topics = []} = filter;
  if (addresses && addresses.length > 0 && !addresses.some((a) => equalBytes(a, log.address))) return false;
  if (topics.length > log.topics.length) return false;
  return topics.every((position, i) => {
    if (position === null) return true;
    const set = position instanceof Uint8Array ? [position] : position;
    return set.length === 0 || set.some((topic) => equalBytes(topic, log.topics[i] as Uint8Array));
  });
}

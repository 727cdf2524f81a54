/**
 * Subscribing to a component's typed `EventEmitter` (the chain's `ChainEvents`, the miner's
 * `MinerEvents`, the RPC server's `RpcEvents`) with one listener per event name, checked by the
 * type checker: a renamed event fails to compile instead of silently never firing.
 */
import type {EventEmitter} from "node:events";

/** Listeners of some of the events of `T`, each typed by its event's arguments. */
export type EventListeners<T extends Record<keyof T, unknown[]>> = {
  [K in keyof T]?: (...args: T[K]) => void;
};

/** Subscribes each of `listeners` to its event of `emitter`; returns what unsubscribes them all. */
export function subscribe<T extends Record<keyof T, unknown[]>>(
  emitter: Pick<EventEmitter<T>, "on" | "off">,
  listeners: EventListeners<T>,
): () => void {
  // node:events types a listener per event through a conditional type the loop cannot narrow.
  const untyped = emitter as unknown as Pick<EventEmitter, "on" | "off">;
  const entries = Object.entries(listeners) as [string, (...args: unknown[]) => void][];
  for (const [event, listener] of entries) untyped.on(event, listener);
  return () => {
    for (const [event, listener] of entries) untyped.off(event, listener);
  };
}

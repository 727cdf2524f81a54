import {type Logger, noopLogger} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {FilterManager} from "../../src/filters/filterManager.ts";
import {defaultRpcOptions, type RpcOptions} from "../../src/options.ts";
import {client, stubEvents} from "../support/stubEvents.ts";

const alice = client("10.0.0.1");
const bob = client("10.0.0.2");
let manager: FilterManager | undefined;
afterEach(() => manager?.close());

function start(options: Partial<RpcOptions>, logger: Logger = noopLogger, nowMs = () => 0) {
  const stub = stubEvents();
  manager = new FilterManager(stub.events, {...defaultRpcOptions, ...options}, logger, nowMs);
  return {filters: manager, pend: stub.pend};
}

const limitError = (message: string) => expect.objectContaining({code: -32005, message});

describe("FilterManager caps (docs/rpc.md §8)", () => {
  it("caps each client at maxFiltersPerClient while another client still installs", () => {
    const {filters} = start({maxFiltersPerClient: 2, maxFilters: 10});
    filters.installHashFilter("blocks", alice);
    filters.installLogFilter({}, alice);
    expect(() => filters.installHashFilter("pendingTransactions", alice)).toThrow(
      limitError("limit exceeded: 2 filters per client"),
    );
    expect(filters.installHashFilter("blocks", bob)).toMatch(/^0x/);
  });

  it("caps the node at maxFilters across clients", () => {
    const {filters} = start({maxFiltersPerClient: 2, maxFilters: 3});
    filters.installHashFilter("blocks", alice);
    filters.installHashFilter("blocks", alice);
    filters.installHashFilter("blocks", bob);
    expect(() => filters.installHashFilter("blocks", bob)).toThrow(
      limitError("limit exceeded: 3 filters on this node"),
    );
    expect(() => filters.installHashFilter("blocks", client("10.0.0.3"))).toThrow(
      limitError("limit exceeded: 3 filters on this node"),
    );
  });

  it("frees the slot of an uninstalled filter", () => {
    const {filters} = start({maxFiltersPerClient: 1});
    const id = filters.installHashFilter("blocks", alice);
    expect(filters.uninstall(id)).toBe(true);
    expect(filters.uninstall(id)).toBe(false);
    filters.installHashFilter("blocks", alice);
    expect(() => filters.installHashFilter("blocks", alice)).toThrow(
      limitError("limit exceeded: 1 filters per client"),
    );
  });

  it("frees the slot of a filter removed for not being polled within filterTimeoutMs", () => {
    let now = 0;
    const {filters} = start({maxFiltersPerClient: 1, maxFilters: 1, filterTimeoutMs: 1_000}, noopLogger, () => now);
    const stale = filters.installHashFilter("blocks", alice);
    now = 999;
    expect(() => filters.installHashFilter("blocks", bob)).toThrow(
      limitError("limit exceeded: 1 filters on this node"),
    );
    now = 1_001;
    filters.installHashFilter("blocks", alice);
    expect(() => filters.takeChanges(stale)).toThrow(
      expect.objectContaining({code: -32000, message: "filter not found"}),
    );
  });
});

describe("pending-transaction filters (docs/rpc.md §3.2)", () => {
  it("keep at most maxPendingFilterChanges hashes, the newest, and log how many were dropped", () => {
    const lines: object[] = [];
    const logger: Logger = {
      ...noopLogger,
      debug: (context: object | string) => {
        lines.push(context as object);
      },
    };
    const {filters, pend} = start({maxPendingFilterChanges: 3, maxFilterChanges: 100}, logger);
    const id = filters.installHashFilter("pendingTransactions", alice);
    const hashes = Array.from({length: 5}, (_, i) => new Uint8Array(32).fill(i));
    for (const hash of hashes) pend(hash);
    expect(filters.takeChanges(id)).toEqual({kind: "hashes", hashes: hashes.slice(2)});
    expect(lines).toEqual([{filter: id, kind: "pendingTransactions", client: alice.key, dropped: 2}]);
    pend(hashes[0] as Uint8Array);
    expect(filters.takeChanges(id)).toEqual({kind: "hashes", hashes: [hashes[0]]});
    expect(lines).toHaveLength(1);
  });

  it("share one hash object between every filter", () => {
    const {filters, pend} = start({});
    const ids = [
      filters.installHashFilter("pendingTransactions", alice),
      filters.installHashFilter("pendingTransactions", bob),
    ];
    const hash = new Uint8Array(32).fill(7);
    pend(hash);
    for (const id of ids) {
      const changes = filters.takeChanges(id);
      expect(changes.kind === "hashes" && changes.hashes[0]).toBe(hash);
    }
  });
});

import {describe, expect, it} from "vitest";
import {isModuleEnabledByDefault, RPC_MODULE_NAMES} from "../../src/index.ts";
import {MethodRegistry} from "../../src/jsonrpc/registry.ts";
import {method} from "../../src/params/method.ts";
import {TestNode} from "../support/node.ts";

const noop = method([], () => null);
const allOn = {isNamespaceEnabled: () => true, enabledMethods: [], disabledMethods: []};

describe("MethodRegistry", () => {
  it("flattens namespace tables to wire names and refuses duplicates", () => {
    const registry = new MethodRegistry(
      [
        {namespace: "eth", methods: {a: noop}},
        {namespace: "net", methods: {a: noop}},
      ],
      allOn,
    );
    expect(registry.names()).toEqual(["eth_a", "net_a"]);
    expect(
      () =>
        new MethodRegistry(
          [
            {namespace: "eth", methods: {a: noop}},
            {namespace: "eth", methods: {a: noop}},
          ],
          allOn,
        ),
    ).toThrow("duplicate RPC method eth_a");
  });

  it("refuses options naming a method that does not exist", () => {
    expect(
      () => new MethodRegistry([{namespace: "eth", methods: {a: noop}}], {...allOn, disabledMethods: ["eth_b"]}),
    ).toThrow("unknown RPC method eth_b in the rpc options");
  });

  it("applies the namespace switch, then the per-method lists", () => {
    const registry = new MethodRegistry(
      [
        {namespace: "evm", methods: {a: noop, b: noop}},
        {namespace: "eth", methods: {c: noop}},
      ],
      {
        isNamespaceEnabled: (ns) => ns !== "evm",
        enabledMethods: ["evm_b"],
        disabledMethods: ["eth_c"],
      },
    );
    expect([
      registry.status("evm_a"),
      registry.status("evm_b"),
      registry.status("eth_c"),
      registry.status("x_y"),
    ]).toEqual(["disabled", "enabled", "disabled", undefined]);
    expect(registry.lookup("x_y")).toEqual({kind: "unknown"});
  });
});

describe("module defaults", () => {
  it("regtest and custom: every namespace; mainnet and testnet: mnr on, evm, personal, debug, trace, sco, admin, db off", () => {
    for (const name of RPC_MODULE_NAMES) expect(isModuleEnabledByDefault(name, "regtest")).toBe(true);
    for (const name of RPC_MODULE_NAMES) expect(isModuleEnabledByDefault(name, "custom")).toBe(true);
    const off = RPC_MODULE_NAMES.filter((name) => !isModuleEnabledByDefault(name, "mainnet"));
    expect(off).toEqual(["evm", "anvil", "hardhat", "personal", "debug", "trace", "sco", "admin", "db"]);
    expect(RPC_MODULE_NAMES.filter((name) => !isModuleEnabledByDefault(name, "testnet"))).toEqual(off);
    expect(isModuleEnabledByDefault("mnr", "mainnet")).toBe(true);
  });

  it("start-up fails on an unknown method in the options", async () => {
    await expect(TestNode.start({rpc: {methods: {enabled: [], disabled: ["eth_nothing"]}}})).rejects.toThrow(
      "unknown RPC method eth_nothing in the rpc options",
    );
  });
});

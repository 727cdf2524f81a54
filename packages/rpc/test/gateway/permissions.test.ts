import {describe, expect, it} from "vitest";
import {defaultKeyPermissions} from "../../src/gateway/keysFile.ts";
import {permissionRefusal} from "../../src/gateway/permissions.ts";

describe("permissionRefusal", () => {
  const defaults = defaultKeyPermissions();

  it("allows the public read and send set by default", () => {
    for (const m of [
      "eth_blockNumber",
      "eth_sendRawTransaction",
      "net_version",
      "web3_clientVersion",
      "xchain_getRawBlockHeaderByNumber",
    ]) {
      expect(permissionRefusal(defaults, "k1", m), m).toBeUndefined();
    }
  });

  it("refuses other namespaces and restricted methods, naming why", () => {
    expect(permissionRefusal(defaults, "k1", "evm_mine")).toBe("API key k1 is not granted the evm namespace");
    expect(permissionRefusal(defaults, "k1", "anvil_setBalance")).toBe("API key k1 is not granted the anvil namespace");
    expect(permissionRefusal(defaults, "k1", "hardhat_mine")).toBe("API key k1 is not granted the hardhat namespace");
    for (const m of [
      "debug_traceTransaction",
      "trace_filter",
      "personal_unlockAccount",
      "mnr_getWork",
      "sco_banAddress",
      "txpool_content",
    ]) {
      expect(permissionRefusal(defaults, "k1", m), m).toMatch(/not granted/);
    }
    expect(permissionRefusal(defaults, "k1", "xchain_getStorageBytesAt")).toBe(
      "it is restricted and API key k1 is not granted it",
    );
  });

  it("allows what is granted by namespace or by name", () => {
    const granted = {namespaces: ["eth", "trace"], methods: ["xchain_getStorageBytesAt", "evm_mine"]};
    expect(permissionRefusal(granted, "k1", "trace_filter")).toBeUndefined();
    expect(permissionRefusal(granted, "k1", "evm_mine")).toBeUndefined();
    expect(permissionRefusal(granted, "k1", "xchain_getStorageBytesAt")).toBeUndefined();
    expect(permissionRefusal(granted, "k1", "evm_snapshot")).toMatch(/evm namespace/);
  });

  it("grants eth_sendUnsignedTransaction (anvil's) by name or with the anvil namespace, never with eth", () => {
    expect(permissionRefusal(defaults, "k1", "eth_sendUnsignedTransaction")).toBe(
      "it is a development control of the anvil namespace and API key k1 is not granted it",
    );
    expect(
      permissionRefusal(
        {namespaces: ["eth"], methods: ["eth_sendUnsignedTransaction"]},
        "k1",
        "eth_sendUnsignedTransaction",
      ),
    ).toBeUndefined();
    expect(
      permissionRefusal({namespaces: ["eth", "anvil"], methods: []}, "k1", "eth_sendUnsignedTransaction"),
    ).toBeUndefined();
  });
});

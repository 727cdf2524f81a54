import {type ApiKeyRecord, defaultKeyLimits, defaultKeyPermissions} from "@xchain/rpc";
import {describe, expect, it} from "vitest";
import {applyKeyFlags} from "../../src/cli/cmds/keyFlags.ts";

const key: ApiKeyRecord = {
  id: "k1",
  sha256: "a".repeat(64),
  label: "old",
  created: "",
  permissions: {...defaultKeyPermissions(), stateOverride: true},
  limits: defaultKeyLimits(),
};

describe("applyKeyFlags", () => {
  it("changes only what the flags give", () => {
    const changed = applyKeyFlags(key, {namespaces: ["eth"], rps: 5, traceRange: 10});
    expect(changed.permissions).toEqual({namespaces: ["eth"], methods: [], stateOverride: true});
    expect(changed.limits).toEqual({...defaultKeyLimits(), requestsPerSecond: 5, traceMaxBlockRange: 10});
    expect(changed.label).toBe("old");
    expect(key.limits.requestsPerSecond).toBe(100);
  });

  it("hands the state override back to the node with node", () => {
    expect(applyKeyFlags(key, {stateOverride: "node"}).permissions.stateOverride).toBeUndefined();
    expect(applyKeyFlags(key, {stateOverride: false}).permissions.stateOverride).toBe(false);
  });
});

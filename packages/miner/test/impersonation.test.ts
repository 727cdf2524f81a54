import {hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {ImpersonatedAccounts, MinerError, MinerErrorCode} from "../src/index.ts";

const alice = hexToBytes("0x1111111111111111111111111111111111111111");
const bob = hexToBytes("0x2222222222222222222222222222222222222222");

describe("ImpersonatedAccounts", () => {
  it("allows an impersonated sender until it is stopped", () => {
    const accounts = new ImpersonatedAccounts({devControls: true});
    expect(accounts.allows(alice)).toBe(false);
    accounts.impersonate(alice);
    expect([accounts.allows(alice), accounts.allows(bob)]).toEqual([true, false]);
    expect(accounts.stopImpersonating(alice)).toBe(true);
    expect(accounts.stopImpersonating(alice)).toBe(false);
    expect(accounts.allows(alice)).toBe(false);
  });

  it("auto-impersonation allows every sender while on", () => {
    const accounts = new ImpersonatedAccounts({devControls: true});
    accounts.setAutoImpersonate(true);
    expect([accounts.allows(alice), accounts.allows(bob)]).toEqual([true, true]);
    accounts.setAutoImpersonate(false);
    expect(accounts.allows(bob)).toBe(false);
  });

  it("refuses every control (NOT_ALLOWED) and allows nothing where the dev controls are off", () => {
    const accounts = new ImpersonatedAccounts({devControls: false});
    for (const control of [
      () => accounts.impersonate(alice),
      () => accounts.stopImpersonating(alice),
      () => accounts.setAutoImpersonate(true),
      () => accounts.requireEnabled(),
    ]) {
      expect(control).toThrow(MinerError);
      try {
        control();
      } catch (e) {
        expect((e as MinerError).code).toBe(MinerErrorCode.NOT_ALLOWED);
        expect((e as MinerError).message).toBe(
          "impersonation is a development control, disabled on this network (miner.devControls)",
        );
      }
    }
    expect([accounts.enabled, accounts.allows(alice)]).toEqual([false, false]);
  });
});

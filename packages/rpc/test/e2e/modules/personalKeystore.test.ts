import {publicKeyToAddress} from "@xchain/primitives";
import {bytesToHex, hexToBytes, publicKeyOf, toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {KeystoreBusyCode, KeystoreBusyError} from "../../../src/keystoreBusy.ts";
import {alice, dave} from "../../support/fixture.ts";
import {FakeKeystore, KEY, STORED} from "../../support/keystore.ts";
import {cows, TestNode} from "../../support/node.ts";

let node: TestNode;
let keystore: FakeKeystore;
beforeAll(async () => {
  keystore = new FakeKeystore();
  node = await TestNode.start({deps: {keystore, wallet: keystore.unlocked}});
});
afterAll(() => node.close());

describe("personal_* with a keystore (docs/protocol/keystore.md §3)", () => {
  it("lists the stored accounts, then the other accounts that sign", async () => {
    const listed = await node.result("personal_listAccounts");
    expect(listed[0]).toBe(STORED);
    expect(listed.slice(1)).toEqual(cows.map((c) => toData(c.address)));
  });

  it("reads the duration as seconds (a number) or milliseconds (a 0x string); 0 is until locked", async () => {
    expect(await node.result("personal_unlockAccount", [STORED, "secret", 60])).toBe(true);
    expect(await node.result("personal_unlockAccount", [STORED, "secret", "0xea60"])).toBe(true);
    expect(await node.result("personal_unlockAccount", [STORED, "secret", 0])).toBe(true);
    expect(await node.result("personal_unlockAccount", [STORED, "secret", null])).toBe(true);
    expect(keystore.durations).toEqual([60_000, 60_000, 0, undefined]);
    expect((await node.error("personal_unlockAccount", [STORED, "secret", -1])).code).toBe(-32602);
    expect((await node.error("personal_unlockAccount", [STORED, "secret", true])).code).toBe(-32602);
  });

  it("answers a wrong passphrase with -32000 and its reason; a dev account is true, an unknown one false", async () => {
    expect(await node.error("personal_unlockAccount", [STORED, "wrong"])).toEqual({
      code: -32000,
      message: "wrong passphrase",
    });
    expect(await node.result("personal_unlockAccount", [toData(alice.address), ""])).toBe(true);
    expect(await node.result("personal_unlockAccount", [`0x${"01".repeat(20)}`, ""])).toBe(false);
  });

  it("locks, dumps an unlocked key, imports keys and refuses bad ones", async () => {
    expect(await node.result("personal_unlockAccount", [STORED, "secret"])).toBe(true);
    expect(await node.result("personal_dumpRawKey", [STORED])).toBe(toData(KEY));
    expect(await node.result("personal_lockAccount", [STORED])).toBe(true);
    expect(await node.result("personal_lockAccount", [STORED])).toBe(false);
    expect(await node.error("personal_dumpRawKey", [STORED])).toEqual({code: -32000, message: "not unlocked"});
    const key = `${"44".repeat(32)}`;
    const imported = await node.result("personal_importRawKey", [key, "pw"]);
    expect(imported).toBe(toData(publicKeyToAddress(publicKeyOf(hexToBytes(key)))));
    expect((await node.error("personal_importRawKey", ["0x1234", "pw"])).code).toBe(-32602);
    expect((await node.error("personal_importRawKey", [`0x${"00".repeat(32)}`, "pw"])).message).toMatch(
      /not a valid secp256k1 private key/,
    );
    expect(await node.result("personal_newAccount", ["pw"])).toMatch(/^0x[0-9a-f]{40}$/);
    expect(await node.result("personal_newAccountWithSeed", ["seed"])).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it("sends from a stored account with its passphrase, locked or not", async () => {
    const hash = await node.result("personal_sendTransaction", [{from: STORED, to: toData(dave.address)}, "secret"]);
    expect(bytesToHex(node.txpool.get(hexToBytes(hash))!.sender())).toBe(STORED.slice(2));
    expect(await node.error("personal_sendTransaction", [{from: STORED, to: toData(dave.address)}, "no"])).toEqual({
      code: -32000,
      message: "wrong passphrase",
    });
    const fromDev = await node.result("personal_sendTransaction", [{from: toData(alice.address), to: STORED}, ""]);
    expect(node.txpool.get(hexToBytes(fromDev))?.sender()).toEqual(alice.address);
  });
});

describe("personal_* while keys are derived (docs/protocol/keystore.md §5)", () => {
  /** A keystore whose derivations end only when their request is told to stop, or are refused as busy. */
  class SlowKeystore extends FakeKeystore {
    readonly signals: (AbortSignal | undefined)[] = [];
    busy = false;
    override newAccount(_passphrase: string, signal?: AbortSignal): Promise<Uint8Array> {
      if (this.busy) {
        return Promise.reject(new KeystoreBusyError({code: KeystoreBusyCode.BUSY, running: 1, waiting: 4}, "busy"));
      }
      this.signals.push(signal);
      return new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
    }
  }

  it("hands the request's signal to the keystore, aborted at the timeout; a busy keystore is -32005", async () => {
    const slow = new SlowKeystore();
    const limited = await TestNode.start({rpc: {requestTimeoutMs: 50}, deps: {keystore: slow, wallet: slow.unlocked}});
    try {
      expect(await limited.call("personal_newAccount", ["pw"])).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: {code: -32011, message: "Execution has got timeout out."},
      });
      expect(slow.signals.map((signal) => signal?.aborted)).toEqual([true]);
      slow.busy = true;
      expect(await limited.error("personal_newAccount", ["pw"])).toEqual({code: -32005, message: "busy"});
    } finally {
      await limited.close();
    }
  });
});

import {hexToBytes, toData} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {alice, dave} from "../../support/fixture.ts";
import {cows, TestNode} from "../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
});
afterAll(() => node.close());

describe("personal_listAccounts", () => {
  it("lists the dev accounts", async () => {
    expect(await node.result("personal_listAccounts")).toEqual(cows.map((c) => toData(c.address)));
  });
});

describe("personal_sendTransaction", () => {
  it("sends from a dev account; the passphrase is ignored", async () => {
    const hash = await node.result("personal_sendTransaction", [
      {from: toData(alice.address), to: toData(dave.address)},
      "",
    ]);
    expect(node.txpool.get(hexToBytes(hash))?.sender()).toEqual(alice.address);
    expect((await node.error("personal_sendTransaction", [{from: toData(alice.address)}])).message).toBe(
      "missing value for required argument 1 (passphrase)",
    );
  });
});

describe("personal_unlockAccount", () => {
  it("is true for a dev account, -32000 for another", async () => {
    expect(await node.result("personal_unlockAccount", [toData(alice.address), "", "0x3c"])).toBe(true);
    expect((await node.error("personal_unlockAccount", [`0x${"01".repeat(20)}`, ""])).code).toBe(-32000);
  });
});

describe("personal_newAccount without a keystore", () => {
  it("is not offered: -32601 with the reason", async () => {
    expect(await node.error("personal_newAccount", ["secret"])).toEqual({
      code: -32601,
      message:
        "the method personal_newAccount does not exist/is not available: the keystore is off (wallet.keystore): the dev wallet has fixed accounts and no key management",
    });
  });
});

import {publicKeyToAddress} from "@xchain/primitives";
import {hexToBytes, recoverPublicKey, toData, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {personalMessageHash} from "../../../../src/index.ts";
import {alice, dave} from "../../../support/fixture.ts";
import {cows, TestNode} from "../../../support/node.ts";

let node: TestNode;
let walletless: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
  walletless = await TestNode.start({wallet: false});
});
afterAll(async () => {
  await node.close();
  await walletless.close();
});

const NO_ACCOUNTS = "this node holds no accounts: sign transactions yourself and use eth_sendRawTransaction";

describe("eth_accounts", () => {
  it("lists the dev wallet's cow accounts (docs/protocol/networks.md §3), [] without a wallet", async () => {
    expect(await node.result("eth_accounts")).toEqual(cows.map((c) => toData(c.address)));
    expect(await walletless.result("eth_accounts")).toEqual([]);
  });
});

describe("eth_sendTransaction", () => {
  it("signs with the dev account and submits: gas 90,000 and gasPrice 0 by default (docs/rpc.md §8)", async () => {
    const hash = await node.result("eth_sendTransaction", [
      {from: toData(alice.address), to: toData(dave.address), value: "0x7"},
    ]);
    const tx = node.txpool.get(hexToBytes(hash))!;
    expect(tx.sender()).toEqual(alice.address);
    expect([tx.gasLimit, tx.gasPrice, tx.value, tx.nonce, tx.chainId]).toEqual([90_000n, 0n, 7n, 0n, 33]);
    // The next one takes the next nonce from the pool.
    const second = await node.result("eth_sendTransaction", [
      {from: toData(alice.address), to: toData(dave.address), gas: "0x5208"},
    ]);
    expect(node.txpool.get(hexToBytes(second))?.nonce).toBe(1n);
  });

  it("fails clearly for an unknown account and without a wallet", async () => {
    // Where the dev controls are on (regtest), the message names impersonation too (docs/rpc.md §4.10).
    expect(await node.error("eth_sendTransaction", [{from: `0x${"12".repeat(20)}`}])).toEqual({
      code: -32000,
      message: `unknown account 0x${"12".repeat(20)}, and not impersonated (anvil_impersonateAccount)`,
    });
    expect(await walletless.error("eth_sendTransaction", [{from: toData(alice.address)}])).toEqual({
      code: -32000,
      message: `${NO_ACCOUNTS}, or impersonate the account (anvil_impersonateAccount)`,
    });
    expect((await node.error("eth_sendTransaction", [{to: toData(dave.address)}])).message).toBe(
      "invalid argument 0 (transaction.from): required",
    );
  });
});

describe("eth_sendTransaction without gasPrice where the minimum gas price is not zero", () => {
  it("pays eth_gasPrice, which the pool admits, where 0 would be refused (docs/rpc.md §8)", async () => {
    const priced = await TestNode.start();
    try {
      // The minimum moves one band step a block from 0 (docs/protocol/fees.md §1).
      for (const minimumGasPrice of [1n, 2n, 3n]) await priced.mine({minimumGasPrice});
      const gasPrice = BigInt(await priced.result("eth_gasPrice"));
      expect(gasPrice).toBeGreaterThan(0n);
      for (const method of ["eth_sendTransaction", "personal_sendTransaction"]) {
        const request = {from: toData(alice.address), to: toData(dave.address), value: "0x7"};
        const params = method === "eth_sendTransaction" ? [request] : [request, ""];
        const hash = await priced.result(method, params);
        expect(priced.txpool.get(hexToBytes(hash))?.gasPrice).toBe(gasPrice);
      }
    } finally {
      await priced.close();
    }
  });
});

describe("eth_sendTransaction with a number the transaction cannot carry", () => {
  it("answers -32602 naming the field for value or gasPrice of 2^255 or more", async () => {
    const huge = `0x8${"0".repeat(63)}`;
    for (const field of ["value", "gasPrice"]) {
      for (const name of ["eth_sendTransaction", "personal_sendTransaction"]) {
        const params: unknown[] = [{from: toData(alice.address), to: toData(dave.address), [field]: huge}];
        if (name === "personal_sendTransaction") params.push("");
        expect(await node.error(name, params)).toEqual({
          code: -32602,
          message: `invalid argument 0 (transaction.${field}): ${field} exceeds 255 bits or 32 bytes`,
        });
      }
    }
  });
});

describe("eth_sign", () => {
  it("signs the personal-message hash: r ‖ s ‖ v with v 27/28 (docs/rpc.md §4.4)", async () => {
    const message = utf8ToBytes("hello xchain");
    const signature = hexToBytes(await node.result("eth_sign", [toData(alice.address), toData(message)]));
    expect(signature).toHaveLength(65);
    const v = signature[64]!;
    expect([27, 28]).toContain(v);
    const key = recoverPublicKey(personalMessageHash(message), signature.slice(0, 32), signature.slice(32, 64), v - 27);
    expect(publicKeyToAddress(key)).toEqual(alice.address);
  });

  it("fails without a wallet", async () => {
    expect((await walletless.error("eth_sign", [toData(alice.address), "0x00"])).message).toBe(NO_ACCOUNTS);
  });
});

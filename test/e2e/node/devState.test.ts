// End-to-end: anvil's and Hardhat's state controls (docs/rpc.md §4.10 "State") on a regtest node,
// driven with viem's test client in both modes: setBalance, setCode, setStorageAt and setNonce
// read back at latest and pending at once, transactions that depend on the edit mined, the edits
// kept across a restart, dealERC20 and setERC20Allowance on a compiled token, and a node whose
// dev controls are off refusing them.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {
  type Address,
  createTestClient,
  erc20Abi,
  type Hex,
  http,
  numberToHex,
  type PrivateKeyAccount,
  pad,
  parseEther,
} from "viem";
import {generatePrivateKey, privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS as FLAGS, SLOT0_READER, viemDevClients} from "../support/devClients.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const TOKENS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Token {
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  function transfer(address to, uint256 value) external returns (bool) {
    balanceOf[msg.sender] -= value;
    balanceOf[to] += value;
    return true;
  }
}
contract Shares {
  mapping(address => uint256) private shares;
  function balanceOf(address holder) external view returns (uint256) { return shares[holder] * 2; }
}`;

let node: RunningNode;

beforeAll(async () => {
  node = await startNode(FLAGS);
});

afterAll(async () => {
  await node?.stop();
});

const clients = (mode: "anvil" | "hardhat", account?: PrivateKeyAccount) => viemDevClients(node.httpUrl, mode, account);

/** Accounts the restart test reads back. */
const kept: {address: Address; balance: bigint; code?: Hex; word?: Hex}[] = [];
let headBeforeRestart: bigint | undefined;

describe.each(["anvil", "hardhat"] as const)("viem's test client, mode %s", (mode) => {
  it("setBalance: latest and pending read it at once, and a transfer it pays for mines", async () => {
    const {account, test, publicClient, wallet} = clients(mode);
    const balance = parseEther("5");
    await test.setBalance({address: account.address, value: balance});
    const [latest, pending] = await Promise.all([
      publicClient.getBalance({address: account.address}),
      publicClient.getBalance({address: account.address, blockTag: "pending"}),
    ]);
    expect([latest, pending]).toEqual([balance, balance]);

    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await wallet.sendTransaction({to, value: parseEther("1"), type: "legacy", gasPrice: 0n});
    expect((await publicClient.waitForTransactionReceipt({hash})).status).toBe("success");
    expect(await publicClient.getBalance({address: to})).toBe(parseEther("1"));
    expect(await publicClient.getBalance({address: account.address})).toBe(parseEther("4"));
    kept.push({address: account.address, balance: parseEther("4")});
  });

  it("setCode and setStorageAt: eth_call runs the code on the storage, eth_getStorageAt reads it", async () => {
    const {test, publicClient} = clients(mode);
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const word = pad(numberToHex(0xc0ffeen), {size: 32});
    await test.setCode({address, bytecode: SLOT0_READER});
    await test.setStorageAt({address, index: 0, value: word});
    expect(await publicClient.getCode({address})).toBe(SLOT0_READER);
    expect(await publicClient.getStorageAt({address, slot: "0x0"})).toBe(word);
    expect((await publicClient.call({to: address})).data).toBe(word);
    expect((await publicClient.call({to: address, blockTag: "pending"})).data).toBe(word);
    kept.push({address, balance: 0n, code: SLOT0_READER, word});
  });

  it("setNonce: the account's next transaction carries that nonce and mines", async () => {
    const {account, test, publicClient, wallet} = clients(mode);
    await test.setBalance({address: account.address, value: parseEther("1")});
    await test.setNonce({address: account.address, nonce: 10});
    expect(await publicClient.getTransactionCount({address: account.address})).toBe(10);
    expect(await publicClient.getTransactionCount({address: account.address, blockTag: "pending"})).toBe(10);
    const hash = await wallet.sendTransaction({
      to: account.address,
      value: 1n,
      nonce: 10,
      type: "legacy",
      gasPrice: 0n,
    });
    const receipt = await publicClient.waitForTransactionReceipt({hash});
    expect(receipt.status).toBe("success");
    expect(await publicClient.getTransactionCount({address: account.address})).toBe(11);
  });
});

describe("anvil's ERC-20 controls and its other answers", () => {
  it("dealERC20 and setERC20Allowance write the slots the token's getters read; a computed balance is refused", async () => {
    const {account, test, publicClient, wallet} = clients("anvil");
    await test.setBalance({address: account.address, value: parseEther("1")});
    const compiled = compileSolidity(TOKENS);
    const deploy = async (name: "Token" | "Shares") => {
      const hash = await wallet.deployContract({
        abi: erc20Abi,
        bytecode: bytesToPrefixedHex(compiled[name]!.bytecode) as Hex,
        type: "legacy",
        gasPrice: 0n,
      });
      return (await publicClient.waitForTransactionReceipt({hash})).contractAddress as Address;
    };
    const token = await deploy("Token");
    const holder = account.address;
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const read = (functionName: "balanceOf" | "allowance", args: readonly Address[]) =>
      publicClient.readContract({address: token, abi: erc20Abi, functionName, args} as never) as Promise<bigint>;

    expect(await test.request({method: "anvil_dealERC20" as never, params: [holder, token, "0x3e8"] as never})).toBe(
      null,
    );
    expect(await read("balanceOf", [holder])).toBe(1000n);
    expect(
      await test.request({
        method: "anvil_setERC20Allowance" as never,
        params: [holder, spender, token, numberToHex(77n)] as never,
      }),
    ).toBe(null);
    expect(await read("allowance", [holder, spender])).toBe(77n);
    // The dealt balance is the token's own: a transfer spends it.
    const hash = await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [spender, 400n],
      type: "legacy",
      gasPrice: 0n,
    });
    expect((await publicClient.waitForTransactionReceipt({hash})).status).toBe("success");
    expect(await read("balanceOf", [holder])).toBe(600n);

    const shares = await deploy("Shares");
    await expect(
      test.request({method: "anvil_dealERC20" as never, params: [holder, shares, "0x10"] as never}),
    ).rejects.toThrow(/no storage slot/);
  });

  it("addBalance adds, setStorageAt answers true, and a bad storage value is refused", async () => {
    const {account, test, publicClient} = clients("anvil");
    await test.setBalance({address: account.address, value: 5n});
    expect(await test.request({method: "anvil_addBalance" as never, params: [account.address, "0x7"] as never})).toBe(
      null,
    );
    expect(await publicClient.getBalance({address: account.address})).toBe(12n);
    // No block is mined after these edits: the restart finds them in the head's edited state only.
    kept.push({address: account.address, balance: 12n});
    headBeforeRestart = await publicClient.getBlockNumber();
    const word = pad("0x01", {size: 32});
    expect(
      await test.request({method: "hardhat_setStorageAt" as never, params: [account.address, "0x0", word] as never}),
    ).toBe(true);
    await expect(
      test.request({method: "anvil_setStorageAt" as never, params: [account.address, "0x0", "0x01"] as never}),
    ).rejects.toThrow(/32 bytes|length/i);
  });
});

describe("a restart", () => {
  it("keeps every edit", async () => {
    await node.stop();
    node = await startNode(FLAGS, node.dataDir);
    const {publicClient} = clients("anvil");
    expect(await publicClient.getBlockNumber()).toBe(headBeforeRestart);
    expect(kept.length).toBe(5);
    for (const {address, balance, code, word} of kept) {
      expect(await publicClient.getBalance({address})).toBe(balance);
      if (code) expect(await publicClient.getCode({address})).toBe(code);
      if (word) expect((await publicClient.call({to: address})).data).toBe(word);
    }
  });
});

describe("a node whose dev controls are off", () => {
  it("refuses the state controls in both namespaces", async () => {
    const off = await startNode([...FLAGS, "--miner.devControls", "false"]);
    try {
      const chain = regtestChain(off.httpUrl);
      for (const mode of ["anvil", "hardhat"] as const) {
        const test = createTestClient({mode, chain, transport: http(off.httpUrl)});
        const address = privateKeyToAccount(generatePrivateKey()).address;
        await expect(test.setBalance({address, value: 1n})).rejects.toThrow(
          /development controls \(evm_\*, anvil_\*, hardhat_\*\) are disabled/,
        );
        await expect(test.setNonce({address, nonce: 1})).rejects.toThrow(
          /development controls \(evm_\*, anvil_\*, hardhat_\*\) are disabled/,
        );
      }
    } finally {
      await off.stop();
    }
  });
});

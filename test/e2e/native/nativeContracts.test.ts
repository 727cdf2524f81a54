// End-to-end: Rootstock's native contracts HDWalletUtils, BlockHeader, Environment and secp256k1 addition and
// multiplication on a regtest node process (docs/protocol/native-contracts.md), every method called with ethers
// through eth_call and real transactions,
// directly and from a Solidity contract, every answer decoded with an ABI: HDWalletUtils' from
// `@rsksmart/rsk-precompiled-abis`, BlockHeader's and Environment's from rskj's method tables (test-utils'
// nativeAbis.ts: the npm package ships none for them). Transactions pay intrinsic gas + the contract's price;
// a failing one gets status 1 (rskj's quirk) and eth_call of it answers "0x".
import abis from "@rsksmart/rsk-precompiled-abis";
import {BLOCK_HEADER_ABI, compileSolidity, ENVIRONMENT_ABI} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {Contract, getBytes, Interface, type JsonRpcProvider, toBeHex, type Wallet} from "ethers";
import {beforeAll, describe, expect, it} from "vitest";
import {blockHeaderFields} from "../support/blockHeaderFields.ts";
import {rpc} from "../support/jsonRpc.ts";
import {hdWalletVectors, useRegtestNode} from "../support/nativeNode.ts";
import type {RunningNode} from "../support/xchainProcess.ts";

const HD_WALLET = "0x0000000000000000000000000000000001000009";
const BLOCK_HEADER = "0x0000000000000000000000000000000001000010";
const ENVIRONMENT = "0x0000000000000000000000000000000001000011";

// A relay: calls `target` with `data` and answers (eth_call) or logs (transaction) what it answered.
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Relay {
    event Answer(bool ok, bytes answer);
    function ask(address target, bytes calldata data) external returns (bool ok, bytes memory answer) {
        (ok, answer) = target.call(data);
    }
    function record(address target, bytes calldata data) external {
        (bool ok, bytes memory answer) = target.call(data);
        emit Answer(ok, answer);
    }
}`;

const vectors = hdWalletVectors();
const hdAbi = new Interface(abis.hdWalletUtils.abi);
const headerAbi = new Interface(BLOCK_HEADER_ABI);
const environmentAbi = new Interface(ENVIRONMENT_ABI);
const relayCompiled = compileSolidity(SOURCE).Relay!;
const relayAbi = new Interface(relayCompiled.abi as never);

const session = useRegtestNode();
let node: RunningNode;
let provider: JsonRpcProvider;
let cow: Wallet;
let relay: Contract;

/** A call of HDWalletUtils' `method` with its arguments, the answer rskj's tests assert and its price. */
interface HdCall {
  method: string;
  args: unknown[];
  answer: string;
  price: bigint;
}

/** Each HDWalletUtils method with arguments and the answer rskj's tests assert. */
const hdCalls = (): HdCall[] => {
  const call = (method: string, price: bigint, args: unknown[], answer: string): HdCall => ({
    method,
    args,
    answer,
    price,
  });
  return [
    ...vectors.toBase58Check.map((v) => call("toBase58Check", 13_000n, [v.hash, v.version], v.result)),
    ...vectors.deriveExtendedPublicKey.map((v) =>
      call("deriveExtendedPublicKey", 107_000n, [v.xpub, v.path], v.result),
    ),
    ...vectors.extractPublicKeyFromExtendedPublicKey.map((v) =>
      call("extractPublicKeyFromExtendedPublicKey", 11_300n, [v.xpub], v.result),
    ),
    ...vectors.getMultisigScriptHash.map((v) =>
      call(
        "getMultisigScriptHash",
        20_000n + 700n * BigInt(v.keys.length - 2),
        [v.minimumSignatures, v.keys],
        v.result,
      ),
    ),
  ];
};

/** Sends a transaction from the cow account and waits for its receipt. */
async function send(to: string, data: string) {
  const tx = await cow.sendTransaction({to, data, type: 0, gasLimit: 1_000_000n});
  const receipt = await tx.wait();
  if (!receipt) throw new Error("no receipt");
  return receipt;
}

/** The intrinsic gas of a transaction with `data` (docs/protocol/gas.md §2). */
function intrinsic(data: string): bigint {
  const bytes = getBytes(data);
  const zeros = bytes.filter((b) => b === 0).length;
  return 21_000n + 4n * BigInt(zeros) + 16n * BigInt(bytes.length - zeros);
}

/** The relay's answer to `data` for `target`, as an eth_call, and as the Answer event of a transaction. */
async function relayed(
  target: string,
  data: string,
): Promise<{call: string; callBlock: number; logged: string; block: number}> {
  const callBlock = await provider.getBlockNumber();
  const [ok, call] = await relay.getFunction("ask").staticCall(target, data, {blockTag: callBlock});
  expect(ok).toBe(true);
  const receipt = await send(await relay.getAddress(), relayAbi.encodeFunctionData("record", [target, data]));
  const event = relayAbi.parseLog(receipt.logs[0] as never);
  expect(event?.args[0]).toBe(true);
  return {call, callBlock, logged: event?.args[1] as string, block: receipt.blockNumber};
}

beforeAll(async () => {
  ({node, provider, cow} = session);
  const create = await cow.sendTransaction({data: bytesToPrefixedHex(relayCompiled.bytecode), type: 0});
  const created = await create.wait();
  relay = new Contract(created?.contractAddress as string, relayAbi, cow);
}, 60_000);

describe("HDWalletUtils", () => {
  it("answers every method through eth_call from ethers, decoded with the npm package's ABI", async () => {
    const wallet = new Contract(HD_WALLET, abis.hdWalletUtils.abi, provider);
    for (const {method, args, answer} of hdCalls()) {
      expect(await wallet.getFunction(method).staticCall(...args)).toBe(answer);
    }
  });

  it("answers every method from a Solidity contract, in eth_call and in a mined transaction", async () => {
    for (const {method, args, answer} of hdCalls()) {
      const data = hdAbi.encodeFunctionData(method, args);
      const {call, logged} = await relayed(HD_WALLET, data);
      expect(hdAbi.decodeFunctionResult(method, call)[0]).toBe(answer);
      expect(hdAbi.decodeFunctionResult(method, logged)[0]).toBe(answer);
    }
  });

  it("charges intrinsic gas + the method's price to a transaction sent to it, success or failure (status 1)", async () => {
    for (const {method, args, price} of hdCalls()) {
      const data = hdAbi.encodeFunctionData(method, args);
      const receipt = await send(HD_WALLET, data);
      expect([receipt.status, receipt.gasUsed]).toEqual([1, intrinsic(data) + price]);
    }
    const bad = hdAbi.encodeFunctionData("toBase58Check", ["0xaabbcc", 111]);
    const failed = await send(HD_WALLET, bad);
    expect([failed.status, failed.gasUsed]).toEqual([1, intrinsic(bad) + 13_000n]);
    // eth_call of a failing native contract answers no data and no error; from a contract, the call answers false.
    expect(await rpc(node.httpUrl, "eth_call", [{to: HD_WALLET, data: bad}, "latest"])).toBe("0x");
    const [ok, answer] = await relay.getFunction("ask").staticCall(HD_WALLET, bad);
    expect([ok, answer]).toEqual([false, "0x"]);
  });
});

describe("BlockHeader", () => {
  /** The fields of block `number` as BlockHeader answers them. */
  const expectedFields = (number: number) => blockHeaderFields(node.httpUrl, number);

  const FIELD_METHODS = [
    "getMergedMiningTags",
    "getCoinbaseAddress",
    "getBlockHash",
    "getMinGasPrice",
    "getGasLimit",
    "getGasUsed",
    "getDifficulty",
    "getDifficultyWithUncles",
    "getCumulativeWork",
    "getBitcoinHeader",
  ];

  it("answers the fields of the block at a depth through eth_call from ethers: depth 0 is the parent of the block", async () => {
    const header = new Contract(BLOCK_HEADER, BLOCK_HEADER_ABI, provider);
    const latest = await provider.getBlockNumber();
    for (const depth of [0, 1]) {
      const expected = await expectedFields(latest - 1 - depth);
      for (const method of FIELD_METHODS) {
        const answer = await header.getFunction(method).staticCall(depth, {blockTag: latest});
        expect([method, depth, answer]).toEqual([method, depth, expected[method]]);
      }
    }
    // No uncles on this chain; depth 4,000 and beyond, and past the genesis: empty bytes.
    const at = {blockTag: latest};
    expect(await header.getFunction("getUncleCoinbaseAddress").staticCall(0, 0, at)).toBe("0x");
    expect(await header.getFunction("getBlockHash").staticCall(4_000, at)).toBe("0x");
    expect(await header.getFunction("getBlockHash").staticCall(latest, at)).toBe("0x");
    // A negative depth fails: eth_call answers "0x", which the ABI cannot decode.
    expect(
      await rpc(node.httpUrl, "eth_call", [
        {to: BLOCK_HEADER, data: headerAbi.encodeFunctionData("getBlockHash", [-1])},
        "latest",
      ]),
    ).toBe("0x");
  });

  it("answers every method from a Solidity contract, in eth_call and in a mined transaction", async () => {
    for (const method of [...FIELD_METHODS, "getUncleCoinbaseAddress"]) {
      const args = method === "getUncleCoinbaseAddress" ? [0, 0] : [0];
      const data = headerAbi.encodeFunctionData(method, args);
      const {call, callBlock, logged, block} = await relayed(BLOCK_HEADER, data);
      // eth_call at a block reads its parent; the transaction mined in `block` reads block − 1.
      const [inCall, inBlock] = [await expectedFields(callBlock - 1), await expectedFields(block - 1)];
      // No uncles on this chain.
      const fallback = method === "getUncleCoinbaseAddress" ? "0x" : undefined;
      expect([method, headerAbi.decodeFunctionResult(method, call)[0]]).toEqual([method, fallback ?? inCall[method]]);
      expect([method, headerAbi.decodeFunctionResult(method, logged)[0]]).toEqual([
        method,
        fallback ?? inBlock[method],
      ]);
    }
  });

  it("charges a transaction sent to it intrinsic gas + 4,000 + 2 per input byte", async () => {
    for (const [method, args] of [
      ["getBlockHash", [0]],
      ["getUncleCoinbaseAddress", [0, 0]],
      ["getBlockHash", [-1]],
    ] as const) {
      const data = headerAbi.encodeFunctionData(method, args as unknown as unknown[]);
      const receipt = await send(BLOCK_HEADER, data);
      const price = 4_000n + 2n * BigInt(getBytes(data).length);
      expect([receipt.status, receipt.gasUsed]).toEqual([1, intrinsic(data) + price]);
    }
  });
});

describe("Environment", () => {
  it("answers the call stack depth: 1 to ethers' eth_call and to a transaction, 1 from a contract", async () => {
    const environment = new Contract(ENVIRONMENT, ENVIRONMENT_ABI, provider);
    expect(await environment.getFunction("getCallStackDepth").staticCall()).toBe(1n);
    const data = environmentAbi.encodeFunctionData("getCallStackDepth", []);
    const {call, logged} = await relayed(ENVIRONMENT, data);
    expect(environmentAbi.decodeFunctionResult("getCallStackDepth", call)[0]).toBe(1n);
    expect(environmentAbi.decodeFunctionResult("getCallStackDepth", logged)[0]).toBe(1n);
    const receipt = await send(ENVIRONMENT, data);
    expect([receipt.status, receipt.gasUsed]).toEqual([1, intrinsic(data)]);
  });
});

describe("secp256k1 addition and multiplication (RSKIP-516)", () => {
  const ADD = "0x0000000000000000000000000000000001000016";
  const MUL = "0x0000000000000000000000000000000001000017";
  const word = (n: bigint) => toBeHex(n, 32).slice(2);
  // secp256k1's generator G and 2G.
  const G = [
    0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
    0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
  ] as const;
  const TWO_G = `0x${word(0xc6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5n)}${word(
    0x1ae168fea63dc339a3c58419466ceaeef7f632653266d0e1236431a950cfe52an,
  )}`;
  const g = word(G[0]) + word(G[1]);

  it("G + G and 2 × G are 2G: by eth_call from ethers, from a contract and in a mined transaction", async () => {
    for (const [target, data] of [
      [ADD, `0x${g}${g}`],
      [MUL, `0x${g}${word(2n)}`],
    ] as const) {
      expect(await provider.call({to: target, data})).toBe(TWO_G);
      const {call, logged} = await relayed(target, data);
      expect([call, logged]).toEqual([TWO_G, TWO_G]);
    }
  });

  it("a transaction pays intrinsic gas + 150 or 3,000; a point off the curve fails with status 1 at the same price", async () => {
    const offCurve = `0x${word(1n)}${word(1n)}${g}`;
    for (const [target, data, price] of [
      [ADD, `0x${g}${g}`, 150n],
      [ADD, offCurve, 150n],
      [MUL, `0x${g}${word(2n)}`, 3_000n],
    ] as const) {
      const receipt = await send(target, data);
      expect([receipt.status, receipt.gasUsed]).toEqual([1, intrinsic(data) + price]);
    }
    expect(await provider.call({to: ADD, data: offCurve})).toBe("0x");
  });
});

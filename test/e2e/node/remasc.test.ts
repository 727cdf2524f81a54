// End-to-end: REMASC as rskj pays it on a real regtest node (docs/protocol/native-contracts.md
// §11): every block from 15 on carries the REMASC transaction's five `mining_fee` logs, decoded
// here as rskj writes them (topic "mining_fee_topic", the recipient as a word, data RLP [block hash,
// amount]: the log is not ABI-encoded, and @rsksmart/rsk-precompiled-abis has no REMASC ABI); the
// receipt, the storage and the balances of spec §14.7's regtest vector; REMASC's getStateForDebugging
// in eth_call (decoded with a standard ABI decoder as `bytes`); and a data directory made
// under the former simplified payout refused at start.
import {join} from "node:path";
import {Bucket, LevelStore, WriteBatch} from "@xchain/db";
import {freePortFlags} from "@xchain/test-utils";
import {utf8ToBytes} from "@xchain/utils";
import {decodeRlp, getBigInt, Interface, toUtf8Bytes, zeroPadValue} from "ethers";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, runXchain, startNode, tempDataDir} from "../support/xchainProcess.ts";

const REMASC = "0x0000000000000000000000000000000001000008";
const MINING_FEE_TOPIC = zeroPadValue(toUtf8Bytes("mining_fee_topic"), 32);
const LABS = "0xdabadabadabadabadabadabadabadabadaba0001";
const FEDERATORS = [
  "0x6b045752f4d650a510a353bbf7e52988331e7f5b",
  "0x85845342b0d5260d516d6da5280a7df9a96d1925",
  "0x138161cda86b55c0de1bc3a0adef974633c85fbe",
];
const GAS_PRICE = 1_000_000_000n;
const FEES = 21_000n * GAS_PRICE;
const NODE_FLAGS = ["--p2p.enabled", "false", "--miner.blockTimeMs", "0"];

interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
}

let node: RunningNode;
let dataDir: string;
const hex = (n: number) => `0x${n.toString(16)}`;

beforeAll(async () => {
  dataDir = tempDataDir();
  node = await startNode(NODE_FLAGS, dataDir);
  for (let n = 1; n <= 4; n++) await rpc(node.httpUrl, "evm_mine");
  const [from] = await rpc<string[]>(node.httpUrl, "eth_accounts");
  const hash = await rpc<string>(node.httpUrl, "eth_sendTransaction", [
    {from, to: "0x00000000000000000000000000000000000000ee", gas: "0x5208", gasPrice: hex(Number(GAS_PRICE))},
  ]);
  expect((await waitForReceipt(node.httpUrl, hash)).blockNumber).toBe("0x5");
  while (Number(await rpc<string>(node.httpUrl, "eth_blockNumber")) < 17) await rpc(node.httpUrl, "evm_mine");
}, 120_000);

afterAll(async () => {
  if (node?.process.exitCode === null) await node.stop("SIGKILL");
});

describe("REMASC on a regtest node", () => {
  it("logs five mining_fee payments in every block from 15 on, none before", async () => {
    const logs = await rpc<RpcLog[]>(node.httpUrl, "eth_getLogs", [
      {fromBlock: "0x0", toBlock: "latest", address: REMASC},
    ]);
    const perBlock = new Map<number, number>();
    for (const log of logs) perBlock.set(Number(log.blockNumber), (perBlock.get(Number(log.blockNumber)) ?? 0) + 1);
    expect([...perBlock]).toEqual([
      [15, 5],
      [16, 5],
      [17, 5],
    ]);
    expect(logs.every((log) => log.topics[0] === MINING_FEE_TOPIC)).toBe(true);
  });

  it("pays block 5's fees at block 15 as spec §14.7 does: a fifth of the pool, labs, federators, miner", async () => {
    const block5 = await rpc<{hash: string; miner: string}>(node.httpUrl, "eth_getBlockByNumber", ["0x5", false]);
    const block15 = await rpc<{transactions: string[]}>(node.httpUrl, "eth_getBlockByNumber", ["0xf", false]);
    const remascTx = block15.transactions.at(-1) as string;
    const receipt = await rpc<{status: string; gasUsed: string; logs: RpcLog[]}>(
      node.httpUrl,
      "eth_getTransactionReceipt",
      [remascTx],
    );
    expect(receipt).toMatchObject({status: "0x1", gasUsed: "0x0"});
    const payments = receipt.logs.map((log) => {
      const [blockHash, amount] = decodeRlp(log.data) as string[];
      return {
        to: `0x${(log.topics[1] as string).slice(26)}`,
        blockHash,
        amount: getBigInt(amount === "0x" ? 0 : (amount as string)),
      };
    });
    const reward = FEES / 5n;
    const labs = reward / 5n;
    const federation = (reward - labs) / 100n;
    expect(payments).toEqual([
      {to: LABS, blockHash: block5.hash, amount: labs},
      ...FEDERATORS.map((to) => ({to, blockHash: block5.hash, amount: federation / 3n})),
      {to: block5.miner, blockHash: block5.hash, amount: reward - labs - federation},
    ]);
    expect(await rpc(node.httpUrl, "eth_getBalance", [LABS, "0xf"])).toBe(hex(Number(labs)));
    // The pool keeps the rest, in REMASC's storage under "rewardBalance".
    const rewardKey = zeroPadValue(toUtf8Bytes("rewardBalance"), 32);
    expect(getBigInt(await rpc<string>(node.httpUrl, "eth_getStorageAt", [REMASC, rewardKey, "0xf"]))).toBe(
      FEES - reward,
    );
  });

  it("answers getStateForDebugging in eth_call with that pool, and refuses processMinersFees", async () => {
    const remasc = new Interface([
      "function getStateForDebugging() view returns (bytes)",
      "function processMinersFees()",
    ]);
    const call = (data: string) => rpc<string>(node.httpUrl, "eth_call", [{to: REMASC, data}, "0xf"]);
    const answer = await call(remasc.encodeFunctionData("getStateForDebugging"));
    const [state] = remasc.decodeFunctionResult("getStateForDebugging", answer) as unknown as [string];
    // RLP [rewardBalance, burnedBalance, the empty siblings list, brokenSelectionRule 00].
    const [reward, burned, siblings, broken] = decodeRlp(state) as [string, string, string[], string];
    expect([getBigInt(reward), burned, siblings, broken]).toEqual([FEES - FEES / 5n, "0x", [], "0x00"]);
    // Only the block's REMASC transaction may run it: a call fails, which eth_call answers with no data.
    expect(await call(remasc.encodeFunctionData("processMinersFees"))).toBe("0x");
  });

  it("refuses the data directory once it is marked as made under the simplified payout", async () => {
    expect((await node.stop()).code).toBe(0);
    // What a database written before rskj's REMASC holds: schema version 1.
    const store = await LevelStore.open(join(dataDir, "db"));
    await store.write(new WriteBatch().put(Bucket.meta, utf8ToBytes("schemaVersion"), Uint8Array.of(1)));
    await store.close();
    const refused = await runXchain(["start", ...NODE_FLAGS, ...freePortFlags(dataDir)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/simplified REMASC payout/);
    expect(refused.stderr).toContain(dataDir);
  });
});

// A follower started with `--miner.enabled false --miner.server.enabled false` (docs/operations.md §10)
// mines nothing: merged-mining work, solutions and the dev controls that mine answer -33000 "mining
// is disabled on this node", as rskj serves no work with its miner server off, and its head stays.
// `--miner.enabled false` alone is a node that serves work to external merge-miners (mainnet's
// setup), and the built-in miner without the work server is refused at start-up.
import {afterEach, describe, expect, it} from "vitest";
import {rpc, rpcRefusal} from "../support/jsonRpc.ts";
import {type RunningNode, refusedStart, startNode} from "../support/xchainProcess.ts";

const DISABLED =
  "mining is disabled on this node (miner.server.enabled = false): it serves no merged-mining work, " +
  "takes no solution and mines no block; send miners and mining requests to a mining node";
const HASH = `0x${"00".repeat(32)}`;

const running: RunningNode[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
});

async function start(args: string[]): Promise<RunningNode> {
  const node = await startNode(["--p2p.enabled", "false", "--miner.enabled", "false", ...args]);
  running.push(node);
  return node;
}

describe("a follower's mining (miner.server.enabled = false)", () => {
  it("refuses work, solutions and mining dev controls with -33000, and mines nothing", async () => {
    const follower = await start(["--miner.server.enabled", "false"]);
    const calls: [string, unknown[]][] = [
      ["mnr_getWork", []],
      ["eth_getWork", []],
      ["mnr_submitBitcoinBlock", ["0x00"]],
      ["mnr_submitBitcoinBlockTransactions", [HASH, "0x00", "0x00", HASH]],
      ["eth_submitWork", ["0x0000000000000001", HASH, HASH]],
      ["evm_mine", []],
      ["anvil_mine", ["0x2"]],
      ["hardhat_mine", []],
      ["evm_startMining", []],
      ["anvil_setAutomine", [true]],
    ];
    for (const [method, params] of calls) {
      expect({method, ...(await rpcRefusal(follower.httpUrl, method, params))}).toEqual({
        method,
        code: -33000,
        message: DISABLED,
      });
    }
    expect(await rpc(follower.httpUrl, "eth_mining")).toBe(false);
    expect(await rpc(follower.httpUrl, "eth_blockNumber")).toBe("0x0");
  });

  it("serves work with the built-in miner off alone (an external merge-miner's node)", async () => {
    const node = await start([]);
    const work = await rpc<{blockHashForMergedMining: string}>(node.httpUrl, "mnr_getWork");
    expect(work.blockHashForMergedMining).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("refuses the built-in miner without the work server at start-up (exit 2)", async () => {
    const exit = await refusedStart(["--miner.server.enabled", "false"]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain("miner.server.enabled");
    expect(exit.stderr).toContain("set miner.enabled = false too (--miner.enabled false)");
  });
});

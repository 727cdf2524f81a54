/**
 * eth_estimateGas against rskj's own estimates (test/vectors/rsk-gas-vectors.json): each fixture
 * is replayed with the execution package's DSL interpreter, its transactions are imported one per
 * block into a chain whose genesis funds the fixture's accounts, and the estimate over RPC must
 * succeed, be the lowest limit that does, and be at most rskj's.
 */
import {readFileSync} from "node:fs";
import {regtestGenesis} from "@xchain/chainspec";
import {vectorPath} from "@xchain/test-utils";
import {bigIntToFixedBytes, concatBytes, hexToBytes, toData} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {readFixture, replayDsl} from "../../../../../execution/test/support/dsl.ts";
import {TestNode} from "../../../support/node.ts";

interface EstimateVector {
  kind: string;
  fixture: string;
  stateAfterBlock: number | "all";
  call: {to: string; value: string; data: string};
  expected: number;
}

const vectors = (
  JSON.parse(readFileSync(vectorPath("rsk-gas-vectors.json"), "utf8")) as {
    vectors: EstimateVector[];
  }
).vectors.filter((v) => v.kind === "estimateGas");

// "0x7b8d56e3 + uint(1) + uint(0)": a selector followed by 32-byte words.
function callData(spec: string): Uint8Array {
  const [selector, ...words] = spec.split("+").map((p) => p.trim());
  const encoded = words.map((w) => bigIntToFixedBytes(BigInt(/uint\((\d+)\)/.exec(w)?.[1] ?? "0"), 32));
  return concatBytes(hexToBytes(selector as string), ...encoded);
}

describe("eth_estimateGas on rskj's gas vectors", () => {
  for (const vector of vectors) {
    it(`${vector.fixture} ${vector.call.data}: at most ${vector.expected}`, async () => {
      const until = vector.stateAfterBlock === "all" ? undefined : vector.stateAfterBlock;
      const replay = await replayDsl(readFixture(vector.fixture), until);
      const genesisRoot = replay.chain.blocks[0]!.stateRoot;
      const alloc = await Promise.all(
        [...replay.accounts.values()].map(async ({address}) => ({
          address,
          balance: (await replay.chain.account(address, genesisRoot))?.balance ?? 0n,
        })),
      );
      const node = await TestNode.start({genesis: {...regtestGenesis, alloc}});
      try {
        for (const name of replay.outcomes.keys()) await node.mine({transactions: [replay.transactions.get(name)!]});
        const sender = replay.accounts.get("acc1")!;
        const to = vector.call.to === "tx01.contract" ? replay.contracts.get("tx01")! : hexToBytes(vector.call.to);
        const call = {
          from: toData(sender.address),
          to: toData(to),
          value: `0x${BigInt(vector.call.value).toString(16)}`,
          data: toData(callData(vector.call.data)),
        };
        const estimate = BigInt(await node.result("eth_estimateGas", [call]));
        expect(estimate).toBeLessThanOrEqual(BigInt(vector.expected));
        const withGas = (gas: bigint) => node.call("eth_call", [{...call, gas: `0x${gas.toString(16)}`}, "latest"]);
        expect((await withGas(estimate)).error).toBeUndefined();
        expect((await withGas(estimate - 1n)).error).toBeDefined();
      } finally {
        await node.close();
      }
    });
  }
});

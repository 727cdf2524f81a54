/**
 * rskj's own gas assertions (test/vectors/rsk-gas-vectors.json) replayed from its DSL fixtures:
 * receipt gasUsed exactly as rskj, and for the estimate vectors the gasUsed of the call run as a
 * transaction (gas 6,800,000) after the fixture's blocks.
 */

import {readFileSync} from "node:fs";
import {bigIntToBytes, setLengthLeft} from "@ethereumjs/util";
import {Transaction} from "@xchain/primitives";
import {vectorPath} from "@xchain/test-utils";
import {bytesToHex, bytesToPrefixedHex, hexToBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {intrinsicGas} from "../src/intrinsic.ts";
import {DSL_CHAIN_ID, readFixture, replayDsl} from "./support/dsl.ts";

interface EstimateVector {
  kind: "estimateGas";
  fixture: string;
  stateAfterBlock: number | "all";
  call: {to: string; value: string; data: string};
  expected: number;
  derivedGasUsed?: number;
}

interface ReceiptVector {
  kind: "receipt.gasUsed";
  fixture: string;
  tx: string;
  expected: number;
}

/** A receipt of a call to a native contract: its status, gas and, where rskj asserts one, the caller's event. */
interface NativeReceiptVector extends ReceiptVector {
  status: boolean;
  event?: string;
}

/** An eth_call on a fixture's state and the number it answers. */
interface NativeCallVector {
  fixture: string;
  to: string;
  data: string;
  expected: number;
}

const vectors = JSON.parse(readFileSync(vectorPath("rsk-gas-vectors.json"), "utf8")) as {
  vectors: (EstimateVector | ReceiptVector)[];
  notReproducedByPrototype: ReceiptVector[];
  nativeContracts: NativeReceiptVector[];
  nativeContractCalls: NativeCallVector[];
};

// "0x7b8d56e3 + uint(1) + uint(0)": a selector followed by 32-byte words.
function callData(spec: string): Uint8Array {
  const parts = spec.split("+").map((p) => p.trim());
  const words = parts
    .slice(1)
    .map((p) => setLengthLeft(bigIntToBytes(BigInt(/uint\((\d+)\)/.exec(p)?.[1] ?? "0")), 32));
  return Uint8Array.from([...hexToBytes(parts[0] as string), ...words.flatMap((w) => [...w])]);
}

describe("rskj receipt gas vectors", () => {
  for (const vector of [...vectors.vectors, ...vectors.notReproducedByPrototype]) {
    if (vector.kind !== "receipt.gasUsed") continue;
    it(`${vector.fixture} ${vector.tx} uses ${vector.expected}`, async () => {
      const replay = await replayDsl(readFixture(vector.fixture));
      const outcome = replay.outcomes.get(vector.tx);
      expect(outcome?.gasUsed).toBe(BigInt(vector.expected));
    });
  }

  it("createAfterSuicide: CREATE2 onto an address self-destructed earlier in the block burns all the gas", async () => {
    const replay = await replayDsl(readFixture("dsl/createAfterSuicide.txt"));
    expect(replay.outcomes.get("createCreatorAndRun")?.status).toBe(true);
    expect(replay.outcomes.get("runSuicider")?.status).toBe(true);
    const second = replay.outcomes.get("callSecondCreator");
    expect(second?.status).toBe(false);
    expect(second?.gasUsed).toBe(200_000n);
    // The set is block-scoped: in the next block the same creation succeeds.
    const failed = replay.transactions.get("callSecondCreator") as Transaction;
    const sender = replay.accounts.get("acc1");
    if (!sender) throw new Error("fixture without acc1");
    const retry = Transaction.sign({...failed, nonce: failed.nonce + 1n}, sender.key, DSL_CHAIN_ID);
    const next = await replay.chain.execute([retry]);
    expect(next.result?.outcomes[0]?.status).toBe(true);
  });
});

describe("rskj estimate vectors, run as transactions", () => {
  for (const vector of vectors.vectors) {
    if (vector.kind !== "estimateGas") continue;
    const label = `${vector.fixture} ${vector.call.data}`;
    it(`${label}: ${vector.derivedGasUsed ?? "succeeds"}`, async () => {
      const until = vector.stateAfterBlock === "all" ? undefined : vector.stateAfterBlock;
      const replay = await replayDsl(readFixture(vector.fixture), until);
      const sender = replay.accounts.get("acc1");
      if (!sender) throw new Error("fixture without acc1");
      const to =
        vector.call.to === "tx01.contract" ? replay.contracts.get("tx01") : hexToBytes(vector.call.to.slice(2));
      const account = await replay.chain.account(sender.address);
      const tx = Transaction.sign(
        {
          nonce: account?.nonce ?? 0n,
          gasPrice: 1n,
          gasLimit: 6_800_000n,
          to,
          value: BigInt(vector.call.value),
          data: callData(vector.call.data),
        },
        sender.key,
        DSL_CHAIN_ID,
      );
      const parent = replay.chain.head;
      const block = await replay.chain.execute([tx], {gasLimit: 10_000_000n});
      const outcome = block.result?.outcomes[0];
      expect(outcome?.status).toBe(true);
      if (vector.derivedGasUsed !== undefined) expect(outcome?.gasUsed).toBe(BigInt(vector.derivedGasUsed));
      // rskj's estimate is an upper reference: never below what the transaction uses.
      expect(outcome?.gasUsed).toBeLessThanOrEqual(BigInt(vector.expected));
      // A call on the same state reports the same gas.
      const call = await replay.chain.executor.call({
        block: replay.chain.context({gasLimit: 10_000_000n}, parent),
        chain: replay.chain.view(parent),
        stateRoot: parent.stateRoot,
        from: sender.address,
        to,
        value: BigInt(vector.call.value),
        data: callData(vector.call.data),
        gasLimit: 6_800_000n,
      });
      expect(call.gasUsed).toBe(outcome?.gasUsed);
    });
  }
});

describe("native contract vectors (docs/protocol/native-contracts.md §6)", () => {
  for (const vector of vectors.nativeContracts) {
    it(`${vector.fixture} ${vector.tx}: status ${vector.status ? 1 : 0}, ${vector.expected}`, async () => {
      const replay = await replayDsl(readFixture(vector.fixture));
      const outcome = replay.outcomes.get(vector.tx);
      expect([outcome?.status, outcome?.gasUsed]).toEqual([vector.status, BigInt(vector.expected)]);
      if (vector.event) {
        const topic = bytesToHex(keccak256(utf8ToBytes(vector.event)));
        expect(outcome?.logs.map((log) => bytesToHex(log.topics[0] as Uint8Array))).toEqual([topic]);
      }
    });
  }

  for (const vector of vectors.nativeContractCalls) {
    it(`${vector.fixture}: eth_call ${vector.data} on ${vector.to} answers ${vector.expected}`, async () => {
      const replay = await replayDsl(readFixture(vector.fixture));
      const sender = replay.accounts.get("acc1");
      if (!sender) throw new Error("fixture without acc1");
      const call = await replay.chain.executor.call({
        block: replay.chain.context(),
        chain: replay.chain.view(),
        stateRoot: replay.chain.head.stateRoot,
        from: sender.address,
        to: replay.contracts.get(vector.to.replace(".contract", "")),
        data: hexToBytes(vector.data),
        gasLimit: 6_800_000n,
      });
      expect(call.status).toBe(true);
      expect(BigInt(bytesToPrefixedHex(call.returnValue))).toBe(BigInt(vector.expected));
    });
  }

  it("a direct call's gas is the intrinsic gas plus the contract's price", async () => {
    const replay = await replayDsl(readFixture("xchain/native_calls.txt"));
    // By method selector, and by address for the contracts that read no selector (secp256k1).
    const price: Record<string, bigint> = {
      "838c2a31": 13_000n,
      "2cce81aa": 4_072n,
      e8ce2274: 0n,
      deadbeef: 0n,
      "0d0cee93": 0n,
      be021a58: 0n,
      "0000000000000000000000000000000001000016": 150n,
      "0000000000000000000000000000000001000017": 3_000n,
    };
    const direct = ["tx08", "tx09", "tx10", "tx11", "tx12", "tx13", "tx19", "tx20", "tx21", "tx22", "tx23"];
    for (const name of direct) {
      const tx = replay.transactions.get(name) as Transaction;
      const key =
        price[bytesToHex(tx.to as Uint8Array)] === undefined
          ? bytesToHex(tx.data.subarray(0, 4))
          : bytesToHex(tx.to as Uint8Array);
      expect(replay.outcomes.get(name)?.gasUsed).toBe(intrinsicGas(tx) + (price[key] as bigint));
    }
  });
});

// End-to-end: every function of every native contract's ABI (the npm package @rsksmart/rsk-precompiled-abis'
// Bridge and HDWalletUtils; test-utils' REMASC, BlockHeader and Environment) on a fresh regtest node, each
// with the arguments and answers of everyMethod.table.ts, reached six ways: eth_call from ethers' Contract,
// eth_call through a Solidity contract with CALL and with STATICCALL, a mined transaction sent to the
// contract (status, gas = intrinsic + price, the answer read from its call trace, its events), and mined
// transactions through the Solidity contract with CALL and STATICCALL, which store what the inner call
// answered for the test to read back. Every answer is decoded with the contract's ABI.
// docs/protocol/native-contracts.md §2, §6, §10.1.
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex} from "@xchain/utils";
import {Contract, type FunctionFragment, getBytes, type Interface, Transaction} from "ethers";
import {beforeAll, describe, expect, it} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {useRegtestNode} from "../support/nativeNode.ts";
import {
  type Context,
  expectedOn,
  FAILS,
  type MethodRow,
  NATIVE_CONTRACTS,
  type NativeContractTable,
  type Outcome,
  type Path,
} from "./everyMethod.table.ts";

// CALL and STATICCALL from eth_call; `keep` runs either in a mined transaction and stores the answer under a key.
const PROBE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract NativeProbe {
    struct Kept { bool done; bool ok; bytes answer; }
    mapping(uint256 => Kept) private answers;
    function callOnce(address target, bytes calldata data) external returns (bool ok, bytes memory answer) {
        (ok, answer) = target.call(data);
    }
    function staticCallOnce(address target, bytes calldata data) external view returns (bool ok, bytes memory answer) {
        (ok, answer) = target.staticcall(data);
    }
    function keep(uint256 key, address target, bytes calldata data, bool isStatic) external {
        (bool ok, bytes memory answer) = isStatic ? target.staticcall(data) : target.call(data);
        answers[key] = Kept(true, ok, answer);
    }
    function kept(uint256 key) external view returns (bool done, bool ok, bytes memory answer) {
        Kept storage k = answers[key];
        return (k.done, k.ok, k.answer);
    }
}`;

/** One function of one ABI with its row (undefined when the table lacks it: that case fails). */
interface Case {
  table: NativeContractTable;
  fn: FunctionFragment;
  signature: string;
  row: MethodRow | undefined;
}

const CASES: Case[] = NATIVE_CONTRACTS.flatMap((table) => {
  const cases: Case[] = [];
  table.abi.forEachFunction((fn) => {
    const signature = fn.format("sighash");
    cases.push({table, fn, signature, row: table.rows[signature]});
  });
  return cases;
});
const caseName = (c: Case) => `${c.table.name}.${c.signature}`;

const session = useRegtestNode();
let probe: Contract;

beforeAll(async () => {
  const compiled = compileSolidity(PROBE_SOURCE).NativeProbe!;
  const deployed = await (
    await session.cow.sendTransaction({data: bytesToPrefixedHex(compiled.bytecode), type: 0})
  ).wait();
  probe = new Contract(deployed!.contractAddress!, compiled.abi as never, session.provider);
});

/** The row of a case; a function without one fails its test here. */
function rowOf(c: Case): MethodRow {
  expect(c.row, `${caseName(c)} is in the ABI but not in everyMethod.table.ts`).toBeDefined();
  return c.row!;
}

const calldata = (c: Case) => c.table.abi.encodeFunctionData(c.fn, [...rowOf(c).args]);

async function expected(c: Case, path: Path, context: Omit<Context, "url">): Promise<Outcome> {
  const outcome = expectedOn(rowOf(c), path);
  return typeof outcome === "function" ? outcome({...context, url: session.node.httpUrl}) : outcome;
}

/**
 * What an inner call or a trace shows, as an Outcome: a failure has no return data (nothing is ever a
 * REVERT, §2.2); a success answers the ABI's single output, or no bytes for a void method (RSKIP-417).
 */
function outcomeOf(abi: Interface, fn: FunctionFragment, ok: boolean, answer: string): Outcome | object {
  if (!ok) return answer === "0x" ? FAILS : {fails: true, returnData: answer};
  if (fn.outputs.length === 0) return answer === "0x" ? {value: undefined} : {value: undefined, returnData: answer};
  return {value: abi.decodeFunctionResult(fn, answer)[0]};
}

/** The intrinsic gas of a transaction with `data` (docs/protocol/gas.md §2). */
function intrinsic(data: Uint8Array): bigint {
  const zeros = data.filter((b) => b === 0).length;
  return 21_000n + 4n * BigInt(zeros) + 16n * BigInt(data.length - zeros);
}

describe("every native method's ABI function has a row, and every row a function", () => {
  it.each(NATIVE_CONTRACTS.map((t) => [t.name, t] as const))("%s", (_name, table) => {
    const functions: string[] = [];
    table.abi.forEachFunction((fn) => {
      functions.push(fn.format("sighash"));
    });
    expect(Object.keys(table.rows).sort()).toEqual(functions.sort());
  });

  it("the npm package's Bridge ABI has its 75 functions", () => {
    expect(CASES.filter((c) => c.table.name === "Bridge")).toHaveLength(75);
  });
});

describe("every native method by eth_call on a fresh node", () => {
  let block: number;
  beforeAll(async () => {
    block = await session.provider.getBlockNumber();
  });
  const at = () => ({block, stateBlock: block});

  it.each(CASES.map((c) => [caseName(c), c] as const))("%s from ethers' Contract", async (_name, c) => {
    const want = await expected(c, "call", at());
    const raw = await session.provider.call({to: c.table.address, data: calldata(c), blockTag: block});
    const method = new Contract(c.table.address, c.table.abi, session.provider).getFunction(c.signature);
    if ("fails" in want) {
      // A failing native contract answers "0x" and no error (§2.3), which no ABI with outputs decodes.
      expect(raw).toBe("0x");
      if (c.fn.outputs.length > 0) {
        await expect(method.staticCall(...rowOf(c).args, {blockTag: block})).rejects.toThrow(/could not decode/);
      }
      return;
    }
    if (c.fn.outputs.length === 0) {
      expect(raw).toBe("0x");
      return;
    }
    expect({value: await method.staticCall(...rowOf(c).args, {blockTag: block})}).toEqual(want);
  });

  it.each(CASES.map((c) => [caseName(c), c] as const))(
    "%s through a Solidity contract, CALL and STATICCALL",
    async (_name, c) => {
      const data = calldata(c);
      for (const [path, method] of [
        ["contractCall", "callOnce"],
        ["staticCall", "staticCallOnce"],
      ] as const) {
        const [ok, answer] = await probe.getFunction(method).staticCall(c.table.address, data, {blockTag: block});
        expect([path, outcomeOf(c.table.abi, c.fn, ok, answer)]).toEqual([path, await expected(c, path, at())]);
      }
    },
  );
});

/** A mined transaction of one case on one path. */
interface Mined {
  receipt: Record<string, unknown> & {blockNumber: string; logs: {topics: string[]; data: string}[]};
  key: number;
}

describe("every native method in mined transactions", () => {
  const TRANSACTIONS = ["transaction", "contractTransaction", "staticTransaction"] as const;
  const mined = new Map<string, Mined>();
  const minedOf = (c: Case, path: Path) => mined.get(`${caseName(c)} ${path}`)!;

  // Signed with consecutive nonces and sent a batch at a time: the node mines whatever is pending.
  beforeAll(async () => {
    const {cow, provider, node} = session;
    const [nonce, gasPrice, {chainId}] = await Promise.all([
      cow.getNonce("pending"),
      provider.send("eth_gasPrice", []),
      provider.getNetwork(),
    ]);
    const probeAddress = await probe.getAddress();
    const jobs: {name: string; key: number; raw: Promise<string>}[] = [];
    CASES.forEach((c, index) => {
      if (!c.row) return;
      const data = getBytes(calldata(c));
      const price = c.row.price(data);
      TRANSACTIONS.forEach((path, p) => {
        const key = index * TRANSACTIONS.length + p;
        const direct = path === "transaction";
        const tx = Transaction.from({
          type: 0,
          chainId,
          nonce: nonce + jobs.length,
          gasPrice: BigInt(gasPrice),
          // Enough for the price and, through the probe, for storing the answer.
          gasLimit: intrinsic(data) + price + (direct ? 100_000n : 600_000n),
          to: direct ? c.table.address : probeAddress,
          data: direct
            ? bytesToPrefixedHex(data)
            : probe.interface.encodeFunctionData("keep", [key, c.table.address, data, path === "staticTransaction"]),
        });
        jobs.push({name: `${caseName(c)} ${path}`, key, raw: cow.signTransaction(tx).then(String)});
      });
    });
    const BATCH = 24;
    for (let i = 0; i < jobs.length; i += BATCH) {
      const batch = jobs.slice(i, i + BATCH);
      const hashes = await Promise.all(
        batch.map(async (job) => rpc<string>(node.httpUrl, "eth_sendRawTransaction", [await job.raw])),
      );
      const receipts = await Promise.all(hashes.map((hash) => waitForReceipt(node.httpUrl, hash)));
      batch.forEach((job, j) => {
        mined.set(job.name, {receipt: receipts[j] as Mined["receipt"], key: job.key});
      });
    }
  });

  /** The events of a receipt decoded with the contract's ABI: [name, ...args]. */
  const eventsOf = (c: Case, receipt: Mined["receipt"]) =>
    receipt.logs.map((log) => {
      const event = c.table.abi.parseLog(log);
      return event ? [event.name, ...event.args] : ["not in the ABI", log];
    });

  const context = (receipt: Mined["receipt"]) => {
    const block = Number(receipt.blockNumber);
    return {block, stateBlock: block - 1};
  };

  it.each(CASES.map((c) => [caseName(c), c] as const))(
    "%s sent by ethers: status 1, intrinsic gas + the price, its answer and events",
    async (_name, c) => {
      const row = rowOf(c);
      const {receipt} = minedOf(c, "transaction");
      const data = getBytes(calldata(c));
      // A failing native contract still gets status 1 (§2.1).
      expect([receipt.status, BigInt(receipt.gasUsed as string)]).toEqual(["0x1", intrinsic(data) + row.price(data)]);
      const trace = await rpc<{output?: string; error?: string}>(session.node.httpUrl, "debug_traceTransaction", [
        receipt.transactionHash,
        {tracer: "callTracer"},
      ]);
      const answer = outcomeOf(c.table.abi, c.fn, trace.error === undefined, trace.output ?? "0x");
      expect(answer).toEqual(await expected(c, "transaction", context(receipt)));
      expect(eventsOf(c, receipt)).toEqual(row.events?.transaction?.(session.cow.address) ?? []);
    },
  );

  it.each(CASES.map((c) => [caseName(c), c] as const))(
    "%s through a Solidity contract in a transaction, CALL and STATICCALL: the answer it stored",
    async (_name, c) => {
      const row = rowOf(c);
      const probeAddress = await probe.getAddress();
      for (const path of ["contractTransaction", "staticTransaction"] as const) {
        const {receipt, key} = minedOf(c, path);
        expect([path, receipt.status]).toEqual([path, "0x1"]);
        const [done, ok, answer] = await probe.getFunction("kept").staticCall(key);
        expect([path, done]).toEqual([path, true]);
        expect([path, outcomeOf(c.table.abi, c.fn, ok, answer)]).toEqual([
          path,
          await expected(c, path, context(receipt)),
        ]);
        const events = path === "contractTransaction" ? row.events?.contractTransaction?.(probeAddress) : undefined;
        expect([path, eventsOf(c, receipt)]).toEqual([path, events ?? []]);
      }
    },
  );
});

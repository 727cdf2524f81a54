/** Every decoder fed arbitrary bytes fails only with its typed error (a NodeError), never a crash. */
import {readMainnetHeaderLines} from "@xchain/test-utils";
import {hexToBytes, NodeError} from "@xchain/utils";
import fc from "fast-check";
import {describe, it} from "vitest";
import {
  Block,
  BlockHeader,
  createRemascTransaction,
  decodeRlp,
  decodeRlpList,
  encodeRlp,
  Receipt,
  type RlpItem,
  RSKIP92_FROM_GENESIS,
  Transaction,
} from "../src/index.ts";

const options = {rules: RSKIP92_FROM_GENESIS, chainId: 33};
const decoders: Record<string, (bytes: Uint8Array) => unknown> = {
  decodeRlp,
  "Transaction.decode": (b) => {
    const tx = Transaction.decode(b, options);
    return [tx.encode(), tx.hash(), tx.sender()];
  },
  "Transaction.decode (block body)": (b) => Transaction.decode(b, {...options, allowRemasc: true}).encode(),
  "BlockHeader.decode": (b) => {
    const header = BlockHeader.decode(b, options.rules);
    return [header.hash(), header.baseHashForMergedMining()];
  },
  "Receipt.decode": (b) => Receipt.decode(b).encode(),
  "Block.decode": (b) => Block.decode(b, options).encode(),
};

function failsOnlyWithNodeError(bytes: Uint8Array): void {
  for (const [name, decode] of Object.entries(decoders)) {
    try {
      decode(bytes);
    } catch (e) {
      if (!(e instanceof NodeError)) throw new Error(`${name} threw ${String(e)}`, {cause: e});
    }
  }
}

const header = hexToBytes(readMainnetHeaderLines()[0]!);
const key = new Uint8Array(32).fill(1);
const tx = Transaction.sign(
  {nonce: 1n, gasPrice: 1n, gasLimit: 21_000n, to: undefined, value: 1n, data: new Uint8Array(4)},
  key,
  33,
);
const receipt = new Receipt({success: true, cumulativeGas: 21_000n, gasUsed: 21_000n, logs: []});
const block = encodeRlp([
  decodeRlpList(header, "header"),
  [[...tx.receivedFields], [...createRemascTransaction(9).receivedFields]],
  [],
]);
const valid = [header, tx.encode(), createRemascTransaction(9).encode(), receipt.encode(), block];

// Byte strings of the lengths the decoders look for, so that random lists reach the field checks.
const fieldBytes = fc.oneof(
  fc.constantFrom(0, 1, 20, 32, 33, 80, 256).chain((n) => fc.uint8Array({minLength: n, maxLength: n})),
  fc.uint8Array({maxLength: 40}),
);
const rlpTree: fc.Arbitrary<RlpItem> = fc.letrec<{item: RlpItem}>((tie) => ({
  item: fc.oneof({depthSize: "small", withCrossShrink: true}, fieldBytes, fc.array(tie("item"), {maxLength: 24})),
})).item;
const fieldList = fc
  .constantFrom(3, 6, 9, 16, 17, 19, 20)
  .chain((n) => fc.array(fc.oneof(fieldBytes, fc.constant<RlpItem>([])), {minLength: n, maxLength: n}));

const mutation = fc.record({
  source: fc.constantFrom(...valid),
  edits: fc.array(fc.record({at: fc.nat(), byte: fc.integer({min: 0, max: 255})}), {minLength: 1, maxLength: 4}),
  cut: fc.option(fc.nat(), {nil: undefined}),
});

describe("decoders on hostile input", () => {
  const runs = {numRuns: 2000};

  it("random bytes", () => {
    fc.assert(fc.property(fc.uint8Array({maxLength: 600}), failsOnlyWithNodeError), runs);
  });

  it("random RLP trees and field-shaped lists", () => {
    fc.assert(
      fc.property(fc.oneof(rlpTree, fieldList), (item) => failsOnlyWithNodeError(encodeRlp(item))),
      runs,
    );
  });

  it("valid encodings with bytes changed or cut", () => {
    fc.assert(
      fc.property(mutation, ({source, edits, cut}) => {
        const bytes = source.slice(0, cut === undefined ? undefined : cut % (source.length + 1));
        for (const {at, byte} of edits) if (bytes.length > 0) bytes[at % bytes.length] = byte;
        failsOnlyWithNodeError(bytes);
      }),
      runs,
    );
  });

  it("valid encodings decode", () => {
    for (const bytes of valid) decodeRlp(bytes);
    Block.decode(block, options);
  });
});

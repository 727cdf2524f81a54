import {readJsonVector, readMainnetHeaderLines} from "@xchain/test-utils";
import {bytesToHex, concatBytes, hexToBytes, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  Block,
  BlockDecodeError,
  BlockDecodeErrorCode,
  type BlockDecodeOptions,
  BlockHeader,
  createRemascTransaction,
  decodeRlp,
  EMPTY_UNCLES_HASH,
  encodeRlp,
  type RlpItem,
  RSKIP92_FROM_GENESIS,
  Transaction,
  TransactionDecodeErrorCode,
  TransactionField,
  unclesHash,
} from "../src/index.ts";

const testnet: BlockDecodeOptions = {rules: RSKIP92_FROM_GENESIS, chainId: 31};
const {blocks} = readJsonVector<{blocks: {number: number; headerRlpFull: string}[]}>(
  "testnet-blocks-from-rpc-json.json",
);
const block3Header = BlockHeader.decode(hexToBytes(blocks.find((b) => b.number === 3)!.headerRlpFull), testnet.rules);
const uncleHeaders = readMainnetHeaderLines()
  .slice(0, 2)
  .map((l) => BlockHeader.decode(hexToBytes(l), testnet.rules));
const key = hexToBytes("c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4");
const signed = Transaction.sign(
  {
    nonce: 0n,
    gasPrice: 60_000_000n,
    gasLimit: 21_000n,
    to: new Uint8Array(20).fill(1),
    value: 1n,
    data: new Uint8Array(0),
  },
  key,
  31,
);
// The same transaction with its nonce written 0x00: a block body must keep it as received.
const nonCanonical = Transaction.decode(
  encodeRlp(signed.receivedFields.map((f, i) => (i === TransactionField.nonce ? Uint8Array.of(0) : f))),
  testnet,
);

function blockItems(): RlpItem[] {
  return [
    decodeRlp(block3Header.encode()),
    [signed, nonCanonical, createRemascTransaction(3)].map((tx) => [...tx.receivedFields]),
    uncleHeaders.map((h) => decodeRlp(h.encode())),
  ];
}

function decodeError(input: RlpItem[] | Uint8Array): BlockDecodeError {
  try {
    Block.decode(input instanceof Uint8Array ? input : encodeRlp(input), testnet);
  } catch (e) {
    expect(e).toBeInstanceOf(BlockDecodeError);
    return e as BlockDecodeError;
  }
  throw new Error("decoded without error");
}

describe("uncles hash", () => {
  it("of no uncles is the vector's emptyUnclesHash", () => {
    const {emptyUnclesHash} = readJsonVector<{emptyUnclesHash: string}>("remasc-tx-and-trie-roots.json");
    expect(bytesToHex(EMPTY_UNCLES_HASH)).toBe(emptyUnclesHash);
    expect(EMPTY_UNCLES_HASH).toEqual(keccak256(Uint8Array.of(0xc0)));
  });

  it("covers the uncles' full encodings, merged-mining fields included", () => {
    const body = concatBytes(...uncleHeaders.map((h) => h.encode()));
    const list = concatBytes(Uint8Array.of(0xf9, body.length >> 8, body.length & 0xff), body);
    expect(unclesHash(uncleHeaders)).toEqual(keccak256(list));
    expect(bytesToHex(list)).toContain(bytesToHex(uncleHeaders[0]!.mergedMining!.coinbase));
  });
});

describe("Block", () => {
  it("decodes and re-encodes byte for byte, keeping transactions as received", () => {
    const bytes = encodeRlp(blockItems());
    const block = Block.decode(bytes, testnet);
    expect(block.encode()).toEqual(bytes);
    expect(block.hash()).toEqual(block3Header.hash());
    expect(block.transactions.map((tx) => bytesToHex(tx.hash()))).toEqual([
      bytesToHex(signed.hash()),
      bytesToHex(signed.hash()),
      "694c5110568eeddab989eb9601cca00ab94dfccf3597f72e1627ca987d05691b",
    ]);
    expect(block.remascTransaction?.nonce).toBe(2n);
    expect(block.uncles.map((u) => u.number)).toEqual(uncleHeaders.map((u) => u.number));
    expect(block.transactions[0]!.sender()).toEqual(signed.sender());
  });

  it("builds from parts and round-trips", () => {
    const block = new Block(block3Header, [createRemascTransaction(3)], []);
    const decoded = Block.decode(block.encode(), testnet);
    expect(decoded.encode()).toEqual(block.encode());
    expect(decoded.uncles).toEqual([]);
  });

  it("a block without transactions (genesis) has no REMASC transaction", () => {
    const block = Block.decode(encodeRlp([decodeRlp(block3Header.encode()), [], []]), testnet);
    expect(block.transactions).toEqual([]);
    expect(block.remascTransaction).toBeUndefined();
  });

  it("a block whose last transaction is signed has no REMASC transaction", () => {
    expect(new Block(block3Header, [signed], []).remascTransaction).toBeUndefined();
  });
});

describe("Block.decode errors", () => {
  const C = BlockDecodeErrorCode;
  const replace = (i: number, item: RlpItem) => blockItems().map((x, j) => (j === i ? item : x));

  it("BAD_RLP: truncated, not a list, trailing bytes", () => {
    expect(decodeError(Uint8Array.of(0xc1)).type).toEqual({code: C.BAD_RLP, reason: "RLP_TRUNCATED"});
    expect(decodeError(Uint8Array.of(0x80)).type).toEqual({code: C.BAD_RLP, reason: "RLP_EXPECTED_LIST"});
    expect(decodeError(Uint8Array.of(0xc0, 0xc0)).type).toEqual({code: C.BAD_RLP, reason: "RLP_TRAILING_BYTES"});
  });

  it("WRONG_ITEM_COUNT", () => {
    expect(decodeError(blockItems().slice(0, 2)).type).toEqual({code: C.WRONG_ITEM_COUNT, count: 2});
    expect(decodeError([...blockItems(), []]).code).toBe(C.WRONG_ITEM_COUNT);
  });

  it("NOT_A_LIST for the header, the transaction list, the uncle list and an uncle", () => {
    const empty = new Uint8Array(0);
    expect(decodeError(replace(0, empty)).type).toEqual({code: C.NOT_A_LIST, item: "header"});
    expect(decodeError(replace(1, empty)).type).toEqual({code: C.NOT_A_LIST, item: "transactions"});
    expect(decodeError(replace(2, empty)).type).toEqual({code: C.NOT_A_LIST, item: "uncles"});
    expect(decodeError(replace(2, [empty])).type).toEqual({code: C.NOT_A_LIST, item: "uncle 0"});
  });

  it("BAD_HEADER", () => {
    const header = decodeRlp(block3Header.encode()) as RlpItem[];
    expect(decodeError(replace(0, header.slice(0, 15))).type).toMatchObject({code: C.BAD_HEADER});
  });

  it("BAD_TRANSACTION: a typed transaction (byte string), a REMASC transaction that is not last, a foreign chain id", () => {
    expect(decodeError(replace(1, [Uint8Array.of(2, 0xc0)])).type).toEqual({
      code: C.BAD_TRANSACTION,
      index: 0,
      reason: TransactionDecodeErrorCode.TYPED_TRANSACTION_UNSUPPORTED,
    });
    const remasc = [...createRemascTransaction(3).receivedFields];
    expect(decodeError(replace(1, [remasc, [...signed.receivedFields]])).type).toEqual({
      code: C.BAD_TRANSACTION,
      index: 0,
      reason: TransactionDecodeErrorCode.UNSIGNED,
    });
    const regtestTx = Transaction.sign(signed, key, 33);
    expect(decodeError(replace(1, [[...regtestTx.receivedFields]])).type).toEqual({
      code: C.BAD_TRANSACTION,
      index: 0,
      reason: TransactionDecodeErrorCode.FOREIGN_CHAIN_ID,
    });
  });

  it("BAD_UNCLE", () => {
    const uncles = uncleHeaders.map((h) => decodeRlp(h.encode()) as RlpItem[]);
    uncles[1] = uncles[1]!.slice(0, 18);
    expect(decodeError(replace(2, uncles)).type).toMatchObject({code: C.BAD_UNCLE, index: 1});
  });
});

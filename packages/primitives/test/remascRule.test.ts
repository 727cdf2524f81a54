/**
 * The REMASC rule's two clauses, which block import (chain) and execution both apply: the last
 * transaction is the REMASC transaction (`closingRemascTransaction`), and no other is
 * (`misplacedRemascIndex`).
 */
import {hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {closingRemascTransaction, createRemascTransaction, misplacedRemascIndex, Transaction} from "../src/index.ts";

const key = hexToBytes("c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4");
const signed = Transaction.sign(
  {nonce: 0n, gasPrice: 1n, gasLimit: 21_000n, to: new Uint8Array(20).fill(1), value: 1n, data: new Uint8Array(0)},
  key,
  33,
);
const remasc = createRemascTransaction(1);

describe("closingRemascTransaction", () => {
  it("is the last transaction when it is the REMASC transaction", () => {
    expect(closingRemascTransaction([remasc])).toBe(remasc);
    expect(closingRemascTransaction([signed, signed, remasc])).toBe(remasc);
  });

  it("is undefined for no transactions, or a last one that is not the REMASC transaction", () => {
    expect(closingRemascTransaction([])).toBeUndefined();
    expect(closingRemascTransaction([remasc, signed])).toBeUndefined();
  });
});

describe("misplacedRemascIndex", () => {
  it("is undefined when the REMASC transaction is only last (or absent)", () => {
    expect(misplacedRemascIndex([])).toBeUndefined();
    expect(misplacedRemascIndex([remasc])).toBeUndefined();
    expect(misplacedRemascIndex([signed, remasc])).toBeUndefined();
    expect(misplacedRemascIndex([signed, signed])).toBeUndefined();
  });

  it("is the index of the first REMASC transaction before the last position", () => {
    expect(misplacedRemascIndex([signed, remasc, remasc, remasc])).toBe(1);
    expect(misplacedRemascIndex([remasc, signed])).toBe(0);
  });
});

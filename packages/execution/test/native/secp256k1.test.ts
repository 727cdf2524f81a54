/**
 * The secp256k1 precompiles of RSKIP-516 (docs/protocol/native-contracts.md §12) on the vectors of rskj's
 * `Secp256k1ServiceTest`: the point (1, V1Y), its double and nine times it, the point at infinity as (0, 0),
 * empty and short input read as zeros, a scalar above the group order, and points off the curve failing.
 */
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {NativeContractFailure} from "../../src/errors.ts";
import type {NativeCallContext} from "../../src/native/dispatch/types.ts";
import {secp256k1Addition, secp256k1Multiplication} from "../../src/native/secp256k1/secp256k1.ts";

const word = (n: bigint | string) => BigInt(n).toString(16).padStart(64, "0");
const V1Y = "29896722852569046015560700294576055776214335159245303116488692907525646231534";
const V1BY2 = [
  "90462569716653277674664832038037428010367175520031690655826237506178777087235",
  "30122570767565969031174451675354718271714177419582540229636601003470726681395",
];
const V1BY9 = [
  "46171929588085016379679198610744759757996296651373714437564035753833216770329",
  "4076329532618667641907419885981677362511359868272295070859229146922980867493",
];
const V1 = word(1n) + word(V1Y);
const ZERO = word(0n);
const NOT_ON_CURVE = "11".repeat(32);
const context = {} as NativeCallContext;

const add = async (hex: string) => bytesToHex((await secp256k1Addition.run(hexToBytes(`0x${hex}`), context)).output);
const mul = async (hex: string) =>
  bytesToHex((await secp256k1Multiplication.run(hexToBytes(`0x${hex}`), context)).output);

describe("Secp256k1Addition (0x…01000016)", () => {
  it("doubles a point added to itself", async () => {
    expect(await add(V1 + V1)).toBe(word(V1BY2[0]!) + word(V1BY2[1]!));
  });

  it("adds two distinct points (rskj's slope case)", async () => {
    const p0 = word(4n) + word("40508090799132825824753983223610497876805216745196355809233758402754120847507");
    const p1 =
      word("1624070059937464756887933993293429854168590106605707304006200119738501412969") +
      word("48810817106871756219742442189260392858217846784043974224646271552914041676099");
    expect(await add(p0 + p1)).toBe(
      word("59470963110652214182270290319243047549711080187995156844066669631124720856270") +
        word("75549874947483386113764723043915448105868538368156141886808196158351727282824"),
    );
  });

  it("takes (0, 0) as the point at infinity, on either side, and answers it as 64 zero bytes", async () => {
    expect(await add(V1 + ZERO + ZERO)).toBe(V1);
    expect(await add(ZERO + ZERO + V1)).toBe(V1);
    expect(await add(ZERO.repeat(4))).toBe(ZERO.repeat(2));
  });

  it("reads missing words as zeros: empty or short input is infinity plus infinity", async () => {
    for (const input of ["", ZERO, ZERO.repeat(2)]) expect(await add(input)).toBe(ZERO.repeat(2));
  });

  it("answers infinity for a point plus its negation", async () => {
    const p = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
    expect(await add(V1 + word(1n) + word(p - BigInt(V1Y)))).toBe(ZERO.repeat(2));
  });

  it("fails on a point off the curve, or a coordinate not below the field's prime", async () => {
    await expect(add(NOT_ON_CURVE.repeat(4))).rejects.toBeInstanceOf(NativeContractFailure);
    await expect(add(V1 + NOT_ON_CURVE.repeat(2))).rejects.toBeInstanceOf(NativeContractFailure);
    const p = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
    // (1 + p, V1Y) is (1, V1Y) modulo p, but BouncyCastle refuses a coordinate out of the field.
    await expect(add(word(1n + p) + word(V1Y) + V1)).rejects.toBeInstanceOf(NativeContractFailure);
  });

  it("costs 150 whatever the input", () => {
    for (const input of ["", V1, V1 + V1]) expect(secp256k1Addition.gas(hexToBytes(`0x${input}`), context)).toBe(150n);
  });
});

describe("Secp256k1Multiplication (0x…01000017)", () => {
  it("multiplies by 1, 2 and 9", async () => {
    expect(await mul(V1 + word(1n))).toBe(V1);
    expect(await mul(V1 + word(2n))).toBe(word(V1BY2[0]!) + word(V1BY2[1]!));
    expect(await mul(V1 + word(9n))).toBe(word(V1BY9[0]!) + word(V1BY9[1]!));
  });

  it("reduces a scalar above the group order (2²⁵⁶ − 1)", async () => {
    expect(await mul(V1 + "ff".repeat(32))).toBe(
      word("68306631035792818416930554521980007078198693994042647901813352646899028694565") +
        word("763410389832780290161227297165449309800016629866253823160953352172730927280"),
    );
  });

  it("answers infinity for a zero scalar, the point at infinity, empty or short input", async () => {
    expect(await mul(V1 + ZERO)).toBe(ZERO.repeat(2));
    for (const input of ["", ZERO, ZERO.repeat(2), ZERO.repeat(2) + word(5n)]) {
      expect(await mul(input)).toBe(ZERO.repeat(2));
    }
  });

  it("fails on a point off the curve, with or without a scalar", async () => {
    await expect(mul(NOT_ON_CURVE.repeat(3))).rejects.toBeInstanceOf(NativeContractFailure);
    await expect(mul(NOT_ON_CURVE.repeat(2))).rejects.toBeInstanceOf(NativeContractFailure);
  });

  it("costs 3,000 whatever the input", () => {
    expect(secp256k1Multiplication.gas(hexToBytes(`0x${V1}${word(9n)}`), context)).toBe(3_000n);
  });
});

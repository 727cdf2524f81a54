/**
 * rskj's ABI codec (docs/protocol/native-contracts.md §2.4): the selectors of §14's tables, the signed decoding of
 * every integer, the selector-alone and short-input rules, offsets and lengths as Java ints, and the empty
 * `bytes` output's extra zero word. Standard encodings are checked against ethers' coder.
 */
import {bytesToHex, bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {AbiCoder} from "ethers";
import {describe, expect, it} from "vitest";
import {AbiDecodeError, abiFunction, decodeArguments, encodeOutputs} from "../../src/native/dispatch/abi.ts";

const coder = AbiCoder.defaultAbiCoder();
const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, "0");
const call = (selector: Uint8Array, body: string) => hexToBytes(`0x${bytesToHex(selector)}${body}`);

describe("selectors", () => {
  it("are keccak256 of name(canonical types), as §14's tables list them", () => {
    const table: [string, string[], string][] = [
      ["getCoinbaseAddress", ["int256"], "243e7d36"],
      ["getBlockHash", ["int256"], "2cce81aa"],
      ["getMergedMiningTags", ["int256"], "5ca053dd"],
      ["getMinGasPrice", ["int256"], "1f1db3ba"],
      ["getGasLimit", ["int256"], "08a06364"],
      ["getGasUsed", ["int256"], "06ac702b"],
      ["getDifficulty", ["int256"], "9319a35b"],
      ["getBitcoinHeader", ["int256"], "3073c6eb"],
      ["getUncleCoinbaseAddress", ["int256", "int256"], "abcd8984"],
      ["getCumulativeWork", ["int256"], "096c8196"],
      ["getDifficultyWithUncles", ["int256"], "579ee593"],
      ["getCallStackDepth", [], "e8ce2274"],
      ["toBase58Check", ["bytes", "int256"], "838c2a31"],
      ["deriveExtendedPublicKey", ["string", "string"], "ab65ddb7"],
      ["extractPublicKeyFromExtendedPublicKey", ["string"], "815a4f90"],
      ["getMultisigScriptHash", ["int256", "bytes[]"], "8ad13825"],
    ];
    for (const [name, inputs, selector] of table)
      expect(bytesToHex(abiFunction(name, inputs, []).selector)).toBe(selector);
    // int and uint are int256 and uint256 in a signature.
    expect(abiFunction("f", ["int", "uint[]"], []).selector).toEqual(
      abiFunction("f", ["int256", "uint256[]"], []).selector,
    );
  });
});

describe("decoding", () => {
  const ints = abiFunction("f", ["int256", "uint256"], []);

  it("reads every integer as signed, uint256 included, and ignores trailing bytes", () => {
    const data = call(ints.selector, `${"ff".repeat(32)}${"80".padEnd(64, "0")}${"ab".repeat(7)}`);
    expect(decodeArguments(ints, data)).toEqual([-1n, -(2n ** 255n)]);
  });

  it("reads integers as 0 and a dynamic array as empty from the selector alone, but fails bytes", () => {
    expect(decodeArguments(ints, ints.selector)).toEqual([0n, 0n]);
    const multisig = abiFunction("getMultisigScriptHash", ["int256", "bytes[]"], []);
    expect(decodeArguments(multisig, multisig.selector)).toEqual([0n, []]);
    const bytes = abiFunction("toBase58Check", ["bytes", "int256"], []);
    expect(() => decodeArguments(bytes, bytes.selector)).toThrow(AbiDecodeError);
  });

  it("fails a word read past the end of the arguments", () => {
    expect(() => decodeArguments(ints, call(ints.selector, `${word(1)}${"00".repeat(31)}`))).toThrow(AbiDecodeError);
  });

  it("decodes standard dynamic values: bytes, string, bytes[] (offsets after the length word)", () => {
    const fn = abiFunction("g", ["bytes", "string", "bytes[]"], []);
    const encoded = coder.encode(
      ["bytes", "string", "bytes[]"],
      ["0x0102", "héllo", ["0xaa", "0x", `0x${"cd".repeat(40)}`]],
    );
    const [bytes, text, list] = decodeArguments(fn, call(fn.selector, encoded.slice(2)));
    expect([bytesToPrefixedHex(bytes as Uint8Array), text]).toEqual(["0x0102", "héllo"]);
    expect((list as Uint8Array[]).map(bytesToPrefixedHex)).toEqual(["0xaa", "0x", `0x${"cd".repeat(40)}`]);
  });

  it("takes offsets and lengths as Java ints: a negative one fails, the low 32 bits count", () => {
    const fn = abiFunction("h", ["bytes"], []);
    const negative = `${word(32)}${"ff".repeat(32)}`;
    expect(() => decodeArguments(fn, call(fn.selector, negative))).toThrow(AbiDecodeError);
    // An offset of 2^32 + 32 is 32 as a Java int.
    const wrapped = `${word(2n ** 32n + 32n)}${word(1)}${"07".padEnd(64, "0")}`;
    expect(decodeArguments(fn, call(fn.selector, wrapped))).toEqual([Uint8Array.of(7)]);
    // An array longer than the bytes that follow it fails before reading an element.
    const list = abiFunction("k", ["uint256[]"], []);
    expect(() => decodeArguments(list, call(list.selector, `${word(32)}${word(1000)}`))).toThrow(AbiDecodeError);
  });

  it("reads bool from the low 32 bits and an address as its whole word", () => {
    const fn = abiFunction("b", ["bool", "bool", "address"], []);
    const data = call(fn.selector, `${word(2n ** 32n)}${word(2)}${"ff".repeat(32)}`);
    expect(decodeArguments(fn, data)).toEqual([false, true, new Uint8Array(32).fill(0xff)]);
  });
});

describe("encoding outputs", () => {
  it("encodes an empty bytes or string as length 0 and one more zero word (96 bytes)", () => {
    for (const type of ["bytes", "string"]) {
      const output = encodeOutputs(abiFunction("e", [], [type]), [type === "bytes" ? new Uint8Array(0) : ""]);
      expect(bytesToHex(output)).toBe(`${word(32)}${word(0)}${word(0)}`);
      // The extra word does not change what a standard decoder reads.
      expect(coder.decode([type], output)[0]).toBe(type === "bytes" ? "0x" : "");
    }
  });

  it("encodes the rest as the standard coder does: ints in two's complement, uint32, bool, bytes, string, bytes[]", () => {
    const cases: [string, unknown, unknown][] = [
      ["int256", -5n, -5n],
      ["uint32", 3n, 3n],
      ["bool", true, true],
      ["bytes", hexToBytes("0x0102"), "0x0102"],
      ["bytes", new Uint8Array(33).fill(9), `0x${"09".repeat(33)}`],
      ["string", "mgivuh9jErcGdRr81cJ3A7YfgbJV7WNyZV", "mgivuh9jErcGdRr81cJ3A7YfgbJV7WNyZV"],
      ["bytes[]", [Uint8Array.of(1), Uint8Array.of(2, 3)], ["0x01", "0x0203"]],
    ];
    for (const [type, value, standard] of cases) {
      const output = encodeOutputs(abiFunction("e", [], [type]), [value as never]);
      expect(bytesToPrefixedHex(output)).toBe(coder.encode([type], [standard]));
    }
    expect(encodeOutputs(abiFunction("none", [], []), [])).toEqual(new Uint8Array(0));
  });
});

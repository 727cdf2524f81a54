// eth_signTypedData_v4's typed data: the hash and signature agree with ethers' TypedDataEncoder and
// verifyTypedData and with viem's hashTypedData and verifyTypedData over many shapes (nested
// structs, arrays of structs, fixed and nested arrays, bytes, negative integers, custom domains);
// what cannot be hashed faithfully is -32602 naming the path.
import {keccak256, utf8ToBytes} from "@xchain/utils";
import {verifyTypedData as ethersVerify, TypedDataEncoder} from "ethers";
import {hashTypedData, verifyTypedData as viemVerify} from "viem";
import {privateKeyToAccount} from "viem/accounts";
import {describe, expect, it} from "vitest";
import {ParamError} from "../../src/params/codec.ts";
import {MAX_STRUCTS, type TypedData, typedData} from "../../src/params/typedData.ts";
import {typedDataHash} from "../../src/typedDataHash.ts";
import {PrivateKeyWallet} from "../../src/wallet.ts";

const KEY = keccak256(utf8ToBytes("cow3"));
const SIGNER = privateKeyToAccount(`0x${Buffer.from(KEY).toString("hex")}`).address;
const wallet = new PrivateKeyWallet([KEY], 33);
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}` as const;

type Json = Record<string, unknown>;

const MAIL_TYPES = {
  Person: [
    {name: "name", type: "string"},
    {name: "wallets", type: "address[]"},
  ],
  Mail: [
    {name: "from", type: "Person"},
    {name: "to", type: "Person[]"},
    {name: "contents", type: "string"},
  ],
};

/** Typed data as a client sends it (JSON: integers as numbers or strings). */
const CASES: {name: string; data: Json}[] = [
  {
    name: "EIP-712's mail with nested structs and arrays of structs",
    data: {
      types: MAIL_TYPES,
      primaryType: "Mail",
      domain: {name: "Ether Mail", version: "1", chainId: 33, verifyingContract: `0x${"cc".repeat(20)}`},
      message: {
        from: {name: "Cow", wallets: [`0x${"cd".repeat(20)}`, `0x${"DE".repeat(20)}`]},
        to: [
          {name: "Bob", wallets: []},
          {name: "Ünïcødé ✉", wallets: [`0x${"0b".repeat(20)}`]},
        ],
        contents: "Hello, Bob!",
      },
    },
  },
  {
    name: "every atomic type: bytes, bytesN, bool, negative and extreme integers",
    data: {
      types: {
        Atoms: [
          {name: "blob", type: "bytes"},
          {name: "empty", type: "bytes"},
          {name: "b1", type: "bytes1"},
          {name: "b32", type: "bytes32"},
          {name: "flag", type: "bool"},
          {name: "small", type: "int8"},
          {name: "tiny", type: "int8"},
          {name: "big", type: "int256"},
          {name: "max", type: "uint256"},
          {name: "u8", type: "uint8"},
          {name: "mid", type: "int128"},
          {name: "who", type: "address"},
        ],
      },
      primaryType: "Atoms",
      domain: {name: "Atoms", chainId: "0x21"},
      message: {
        blob: "0xdeadbeef00",
        empty: "0x",
        b1: "0x7f",
        b32: `0x${"ab".repeat(32)}`,
        flag: false,
        small: -128,
        tiny: "-1",
        big: `-${(1n << 255n).toString()}`,
        max: `0x${"ff".repeat(32)}`,
        u8: 255,
        mid: "-0x10",
        who: `0x${"Aa".repeat(20)}`,
      },
    },
  },
  {
    name: "fixed and nested arrays",
    data: {
      types: {
        Grid: [
          {name: "cells", type: "uint16[2][]"},
          {name: "corners", type: "int32[4]"},
          {name: "labels", type: "string[]"},
          {name: "hashes", type: "bytes32[][]"},
        ],
      },
      primaryType: "Grid",
      domain: {version: "2", salt: `0x${"01".repeat(32)}`},
      message: {
        cells: [
          [1, 2],
          [65535, 0],
          [3, "4"],
        ],
        corners: [-1, 2, -3, 2147483647],
        labels: ["a", "", "ccc"],
        hashes: [[], [`0x${"00".repeat(32)}`, `0x${"ff".repeat(32)}`]],
      },
    },
  },
  {
    name: "a permit (ERC-2612) with an explicit EIP712Domain",
    data: {
      types: {
        EIP712Domain: [
          {name: "name", type: "string"},
          {name: "version", type: "string"},
          {name: "chainId", type: "uint256"},
          {name: "verifyingContract", type: "address"},
        ],
        Permit: [
          {name: "owner", type: "address"},
          {name: "spender", type: "address"},
          {name: "value", type: "uint256"},
          {name: "nonce", type: "uint256"},
          {name: "deadline", type: "uint256"},
        ],
      },
      primaryType: "Permit",
      domain: {name: "Token", version: "1", chainId: 31, verifyingContract: `0x${"12".repeat(20)}`},
      message: {
        owner: `0x${"34".repeat(20)}`,
        spender: `0x${"56".repeat(20)}`,
        value: "1000000000000000000000",
        nonce: 0,
        deadline: "0xffffffff",
      },
    },
  },
  {
    name: "deep nesting across types referenced in any order, with an unused type",
    data: {
      types: {
        Z: [{name: "a", type: "A"}],
        A: [
          {name: "b", type: "B[]"},
          {name: "n", type: "uint256"},
        ],
        B: [{name: "c", type: "C"}],
        C: [{name: "v", type: "bytes"}],
        Unused: [{name: "x", type: "bool"}],
      },
      primaryType: "Z",
      domain: {name: "Deep"},
      message: {a: {b: [{c: {v: "0x01"}}, {c: {v: "0x0203"}}], n: 7}},
    },
  },
];

/** The typed data in the form ethers and viem take in code: integers as bigint. */
function asLibrariesTakeIt(data: Json): {
  domain: Json;
  types: Record<string, {name: string; type: string}[]>;
  message: Json;
  primaryType: string;
} {
  return typedData(data, "typedData") as unknown as ReturnType<typeof asLibrariesTakeIt>;
}

describe("eth_signTypedData_v4's hash and signature", () => {
  for (const {name, data} of CASES) {
    it(`agrees with ethers and viem: ${name}`, async () => {
      const checked = typedData(JSON.stringify(data), "typedData");
      const ours = hex(await typedDataHash(checked, "1 (typedData)"));
      const {domain, types, message, primaryType} = asLibrariesTakeIt(data);
      const {EIP712Domain: _, ...withoutDomain} = types;
      // ethers finds the primary type itself: drop the types the primary one does not use.
      const used = primaryType === "Z" ? {Z: types.Z, A: types.A, B: types.B, C: types.C} : withoutDomain;
      expect(ours).toBe(TypedDataEncoder.hash(domain, used as never, message));
      expect(ours).toBe(hashTypedData({domain, types, primaryType, message} as never));

      const signature = hex(wallet.signDigest(hexToAddressBytes(SIGNER), await typedDataHash(checked, "1")));
      expect(ethersVerify(domain, used as never, message, signature)).toBe(SIGNER);
      expect(await viemVerify({address: SIGNER, signature, domain, types, primaryType, message} as never)).toBe(true);
    });
  }

  it("takes the typed data as an object or as its JSON text", async () => {
    const data = CASES[0]?.data as Json;
    expect(await typedDataHash(typedData(data, "t"), "1")).toEqual(
      await typedDataHash(typedData(JSON.stringify(data), "t"), "1"),
    );
  });
});

function hexToAddressBytes(address: string): Uint8Array {
  return Uint8Array.from(Buffer.from(address.slice(2), "hex"));
}

/** The -32602 detail of a refused typed data: `path: reason`. */
function refusal(data: unknown): string {
  try {
    typedData(data, "typedData");
  } catch (e) {
    if (e instanceof ParamError) return `${e.path}: ${e.detail}`;
    throw e;
  }
  throw new Error("accepted");
}

describe("typed data that is refused, with its path", () => {
  const base = CASES[0]?.data as Json;
  const withTypes = (types: Json, extra: Json = {}) => ({...base, types, ...extra});

  it("a bad document or domain", () => {
    expect(refusal("{not json")).toBe("typedData: not valid JSON");
    expect(refusal([])).toBe("typedData: want an object, got array");
    expect(refusal({...base, domain: "ether mail"})).toBe("typedData.domain: want an object, got string");
    expect(refusal({...base, domain: {name: "x", chainID: 1}})).toBe(
      "typedData.domain.chainID: not a field of EIP712Domain",
    );
    expect(refusal({...base, domain: {chainId: -1}})).toBe("typedData.domain.chainId: -1 is out of range for uint256");
    expect(refusal({...base, domain: {verifyingContract: "0x1234"}})).toBe(
      "typedData.domain.verifyingContract: want 20 bytes (address), got 2",
    );
  });

  it("an unknown primary type, unknown or malformed types, duplicate fields", () => {
    expect(refusal({...base, primaryType: "Letter"})).toBe("typedData.primaryType: Letter is not among the types");
    expect(refusal({...base, primaryType: 5})).toBe("typedData.primaryType: want a type name");
    expect(refusal(withTypes({...MAIL_TYPES, Mail: [{name: "to", type: "Human"}]}))).toBe(
      "typedData.types.Mail[0]: unknown type Human",
    );
    expect(refusal(withTypes({Mail: [{name: "n", type: "uint"}]}))).toBe("typedData.types.Mail[0]: unknown type uint");
    expect(refusal(withTypes({Mail: [{name: "n", type: "uint7"}]}))).toBe(
      "typedData.types.Mail[0]: unknown type uint7",
    );
    expect(refusal(withTypes({Mail: [{name: "n", type: "bytes33"}]}))).toBe(
      "typedData.types.Mail[0]: unknown type bytes33",
    );
    expect(refusal(withTypes({uint256: [{name: "n", type: "bool"}]}))).toBe(
      "typedData.types.uint256: a struct name is letters, digits, _, $ or : and no Solidity type",
    );
    expect(
      refusal(
        withTypes({
          Mail: [
            {name: "a", type: "bool"},
            {name: "a", type: "string"},
          ],
        }),
      ),
    ).toBe("typedData.types.Mail[1]: duplicate field a");
    expect(refusal(withTypes({Mail: {name: "a", type: "bool"}}))).toBe(
      "typedData.types.Mail: want an array of fields, got object",
    );
  });

  it("cyclic types, directly or through others and arrays", () => {
    expect(refusal(withTypes({Mail: [{name: "reply", type: "Mail"}]}))).toBe(
      "typedData.types.Mail: a type may not contain itself: Mail → Mail",
    );
    expect(
      refusal(
        withTypes({
          Mail: [{name: "thread", type: "Thread"}],
          Thread: [{name: "posts", type: "Post[][2]"}],
          Post: [{name: "quoted", type: "Mail"}],
        }),
      ),
    ).toBe("typedData.types.Mail: a type may not contain itself: Mail → Thread → Post → Mail");
  });

  it("values of the wrong type, missing fields and arrays of the wrong length", () => {
    const message = base.message as Json;
    const from = message.from as Json;
    expect(refusal({...base, message: {...message, from: {...from, wallets: "0x00"}}})).toBe(
      "typedData.message.from.wallets: want an array (address[]), got string",
    );
    expect(refusal({...base, message: {...message, to: [{name: 5, wallets: []}]}})).toBe(
      "typedData.message.to[0].name: want a string, got number",
    );
    expect(refusal({...base, message: {...message, contents: undefined}})).toBe(
      "typedData.message.contents: missing (string of Mail)",
    );
    expect(refusal({...base, message: {...message, from: {...from, wallets: ["0xzz"]}}})).toBe(
      "typedData.message.from.wallets[0]: want 0x-prefixed hex bytes (address)",
    );
    const atoms = CASES[1]?.data as Json;
    const atomMessage = atoms.message as Json;
    const atom = (field: string, value: unknown) => refusal({...atoms, message: {...atomMessage, [field]: value}});
    expect(atom("small", -129)).toBe("typedData.message.small: -129 is out of range for int8");
    expect(atom("u8", 256)).toBe("typedData.message.u8: 256 is out of range for uint8");
    expect(atom("max", 1.5)).toBe(
      "typedData.message.max: want an integer (uint256): a safe JSON number, a decimal or a 0x-hex string",
    );
    expect(atom("max", 2 ** 60)).toMatch(/want an integer/);
    expect(atom("flag", "true")).toBe("typedData.message.flag: want true or false, got string");
    expect(atom("b32", "0x01")).toBe("typedData.message.b32: want 32 bytes (bytes32), got 1");
    expect(atom("blob", "0x123")).toBe("typedData.message.blob: want 0x-prefixed hex bytes (bytes)");
    const grid = CASES[2]?.data as Json;
    expect(refusal({...grid, message: {...(grid.message as Json), corners: [1, 2, 3]}})).toBe(
      "typedData.message.corners: want 4 elements (int32[4]), got 3",
    );
  });

  it("bounds the work: the number of struct values", () => {
    const list = Array.from({length: MAX_STRUCTS}, () => ({name: "x", wallets: []}));
    expect(refusal({...base, message: {...(base.message as Json), to: list}})).toMatch(
      /^typedData\.message\.to\[\d+\]: more than 10000 structs in the domain and message$/,
    );
  });

  it("keeps a key named __proto__ a plain field", async () => {
    const data = {
      types: {Odd: [{name: "__proto__", type: "uint8"}]},
      primaryType: "Odd",
      domain: {name: "odd"},
      message: JSON.parse('{"__proto__": 5}'),
    };
    const checked: TypedData = typedData(JSON.stringify(data), "t");
    expect(Object.getOwnPropertyDescriptor(checked.message, "__proto__")?.value).toBe(5n);
    expect(hex(await typedDataHash(checked, "1"))).toBe(hashTypedData(checked as never));
  });
});

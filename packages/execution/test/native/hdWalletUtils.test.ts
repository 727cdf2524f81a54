/**
 * HDWalletUtils (docs/protocol/native-contracts.md §5) against rskj's own unit-test vectors, its inputs encoded and
 * its answers decoded with the ABI of `@rsksmart/rsk-precompiled-abis`; rskj's refusals; the prices.
 */
import abis from "@rsksmart/rsk-precompiled-abis";
import {readJsonVector} from "@xchain/test-utils";
import {bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {Interface} from "ethers";
import {describe, expect, it} from "vitest";
import {NativeContractFailure, NativeContractFailureCode} from "../../src/errors.ts";
import {base58check} from "../../src/native/hdWallet/extendedKeys.ts";
import {hdWalletUtils} from "../../src/native/hdWallet/hdWalletUtils.ts";
import {nativeContext} from "../support/nativeContext.ts";

interface Vectors {
  toBase58Check: {hash: string; version: number; result: string}[];
  toBase58CheckRefused: {hash: string; version: number}[];
  deriveExtendedPublicKey: {xpub: string; path: string; result: string}[];
  deriveExtendedPublicKeyRefusedPaths: string[];
  extractPublicKeyFromExtendedPublicKey: {xpub: string; result: string}[];
  extractPublicKeyRefused: string[];
  getMultisigScriptHash: {minimumSignatures: number; keys: string[]; result: string}[];
}

const vectors = readJsonVector<Vectors>("native-contracts-hdwallet.json");
const abi = new Interface(abis.hdWalletUtils.abi);
const context = nativeContext({address: hdWalletUtils.address});
const TPUB = vectors.deriveExtendedPublicKey[0]?.xpub as string;

const encode = (method: string, args: unknown[]) => hexToBytes(abi.encodeFunctionData(method, args));

/** Runs `method(args)` and decodes its single answer. */
async function answer(method: string, args: unknown[]): Promise<unknown> {
  const {output} = await hdWalletUtils.run(encode(method, args), context);
  return abi.decodeFunctionResult(method, output)[0];
}

/** The failure `method(args)` (or raw `data`) ends with. */
async function refusal(method: string, args: unknown[], data = encode(method, args)): Promise<NativeContractFailure> {
  try {
    await hdWalletUtils.run(data, context);
  } catch (e) {
    expect(e).toBeInstanceOf(NativeContractFailure);
    return e as NativeContractFailure;
  }
  return expect.unreachable(`${method} answered`);
}

describe("HDWalletUtils answers rskj's vectors", () => {
  it("toBase58Check", async () => {
    for (const v of vectors.toBase58Check) expect(await answer("toBase58Check", [v.hash, v.version])).toBe(v.result);
  });

  it("deriveExtendedPublicKey, down to the largest non-hardened index", async () => {
    for (const v of vectors.deriveExtendedPublicKey) {
      expect(await answer("deriveExtendedPublicKey", [v.xpub, v.path])).toBe(v.result);
    }
  });

  it("extractPublicKeyFromExtendedPublicKey", async () => {
    for (const v of vectors.extractPublicKeyFromExtendedPublicKey) {
      expect(await answer("extractPublicKeyFromExtendedPublicKey", [v.xpub])).toBe(v.result);
    }
  });

  it("getMultisigScriptHash, with compressed keys and with four of them uncompressed", async () => {
    for (const v of vectors.getMultisigScriptHash) {
      expect(await answer("getMultisigScriptHash", [v.minimumSignatures, v.keys])).toBe(v.result);
    }
  });
});

describe("HDWalletUtils refuses what rskj refuses, and takes what it takes", () => {
  it("toBase58Check: a hash of another length than 20, a version outside 0…255", async () => {
    for (const v of vectors.toBase58CheckRefused) {
      const failure = await refusal("toBase58Check", [v.hash, v.version]);
      expect(failure.type.code).toBe(NativeContractFailureCode.ILLEGAL_ARGUMENT);
    }
  });

  it("deriveExtendedPublicKey: rskj's refused paths, and 10 levels accepted but not 11", async () => {
    for (const path of vectors.deriveExtendedPublicKeyRefusedPaths) {
      const failure = await refusal("deriveExtendedPublicKey", [TPUB, path]);
      expect(failure.message).toMatch(path.split("/").length > 10 ? /10 levels at most/ : /Invalid path/);
    }
    expect(String(await answer("deriveExtendedPublicKey", [TPUB, "0/1/2/3/4/5/6/7/8/9"]))).toMatch(/^tpub/);
    // Java's Integer.parseInt takes a sign inside the path ("+2", "-0"), but not at its ends.
    expect(await answer("deriveExtendedPublicKey", [TPUB, "2/+3/4"])).toBe(vectors.deriveExtendedPublicKey[0]?.result);
    expect(await answer("deriveExtendedPublicKey", [TPUB, "0/-0/0/0/0/0"])).toBe(
      vectors.deriveExtendedPublicKey[1]?.result,
    );
    await refusal("deriveExtendedPublicKey", [TPUB, "+2/3"]);
    // Leading zeros are read past (a Java int of any length of zeros); a long number is out of range.
    expect(await answer("deriveExtendedPublicKey", [TPUB, `${"0".repeat(30)}2/3/4`])).toBe(
      vectors.deriveExtendedPublicKey[0]?.result,
    );
    await refusal("deriveExtendedPublicKey", [TPUB, `2/${"9".repeat(5_000)}/4`]);
  });

  it("extended keys: another prefix, a bad checksum, a prefix that does not match the key's network", async () => {
    for (const xpub of vectors.extractPublicKeyRefused) {
      const failure = await refusal("extractPublicKeyFromExtendedPublicKey", [xpub]);
      expect(failure.message).toMatch(/Invalid extended public key/);
    }
    expect(
      (await refusal("extractPublicKeyFromExtendedPublicKey", [vectors.extractPublicKeyRefused[1]])).message,
    ).toMatch(/'tpubD6NzVbkrYhZ4YHQqwWz3Tm1ESZ9AidobeyLG4mEezB6hN8gFFWrcjczyF77Lw3\.\.\.'/);
    await refusal("deriveExtendedPublicKey", [`x${TPUB.slice(1)}`, "0"]);
  });

  it("takes a depth-0 key with a parent fingerprint and index, as bitcoinj does, answering as for the root", async () => {
    const root = base58check.decode(TPUB);
    const withParent = Uint8Array.from(root);
    withParent.set([1, 2, 3, 4, 0, 0, 0, 9], 5);
    const key = base58check.encode(withParent);
    expect(await answer("deriveExtendedPublicKey", [key, "2/3/4"])).toBe(vectors.deriveExtendedPublicKey[0]?.result);
    const publicKey = await answer("extractPublicKeyFromExtendedPublicKey", [TPUB]);
    expect(await answer("extractPublicKeyFromExtendedPublicKey", [key])).toBe(publicKey);
  });

  it("getMultisigScriptHash takes 65-byte keys in the hybrid form (06/07) whose parity is right, as BouncyCastle", async () => {
    const v = vectors.getMultisigScriptHash[1] as Vectors["getMultisigScriptHash"][number];
    const uncompressed = v.keys[0] as string;
    const parity = Number.parseInt(uncompressed.slice(-2), 16) & 1;
    const hybrid = (prefix: number) => `0x0${prefix}${uncompressed.slice(4)}`;
    const keys = [hybrid(6 + parity), ...v.keys.slice(1)];
    expect(await answer("getMultisigScriptHash", [v.minimumSignatures, keys])).toBe(v.result);
    const wrong = [hybrid(7 - parity), ...v.keys.slice(1)];
    expect((await refusal("getMultisigScriptHash", [v.minimumSignatures, wrong])).message).toMatch(
      /Invalid public key format/,
    );
  });

  it("getMultisigScriptHash: rskj's checks, in rskj's order", async () => {
    const keys = (vectors.getMultisigScriptHash[0] as Vectors["getMultisigScriptHash"][number]).keys;
    const cases: [number, string[], RegExp][] = [
      [0, keys.slice(0, 2), /Minimum required signatures/],
      [-1, keys.slice(0, 2), /Minimum required signatures/],
      [1, keys.slice(0, 1), /At least 2 public keys are required/],
      [3, keys.slice(0, 2), /are less than the minimum required signatures/],
      [1, [...keys, keys[0] as string], /are more than the maximum allowed/],
      [1, [keys[0] as string, "0xaabbcc"], /Invalid public key length: 3/],
      [1, [keys[0] as string, `0x08${(keys[1] as string).slice(4)}`], /Invalid public key format/],
    ];
    for (const [m, list, message] of cases) {
      expect((await refusal("getMultisigScriptHash", [m, list])).message).toMatch(message);
    }
    // m does not fit a Java int: intValueExact throws.
    await refusal("getMultisigScriptHash", [2n ** 31n, keys.slice(0, 2)]);
  });

  it("input naming no method: 1 to 3 bytes, empty, an unknown selector, arguments that do not decode", async () => {
    for (const data of ["0x01", "0x010203", "0x", "0xdeadbeef"]) {
      const failure = await refusal("", [], hexToBytes(data));
      expect(failure.type.code).toBe(NativeContractFailureCode.UNKNOWN_METHOD);
      expect(hdWalletUtils.gas(hexToBytes(data), context)).toBe(0n);
    }
    const truncated = encode("toBase58Check", [vectors.toBase58Check[0]?.hash, 111]).slice(0, 40);
    expect((await refusal("", [], truncated)).type.code).toBe(NativeContractFailureCode.BAD_ARGUMENTS);
    expect(hdWalletUtils.gas(truncated, context)).toBe(0n);
  });
});

describe("HDWalletUtils prices (no charge per input byte)", () => {
  it("13,000, 107,000, 11,300, and 20,000 + 700 per key beyond two", () => {
    const v = vectors.getMultisigScriptHash[0] as Vectors["getMultisigScriptHash"][number];
    const price = (method: string, args: unknown[]) => hdWalletUtils.gas(encode(method, args), context);
    expect(price("toBase58Check", ["0x0d3bf5f30dda7584645546079318e97f0e1d044f", 111])).toBe(13_000n);
    expect(price("deriveExtendedPublicKey", [TPUB, "2/3/4"])).toBe(107_000n);
    expect(price("extractPublicKeyFromExtendedPublicKey", [TPUB])).toBe(11_300n);
    expect(price("getMultisigScriptHash", [8, v.keys])).toBe(20_000n + 13n * 700n);
    expect(price("getMultisigScriptHash", [1, v.keys.slice(0, 1)])).toBe(20_000n);
    expect(price("getMultisigScriptHash", [1, [...v.keys, ...v.keys]])).toBe(20_000n + 28n * 700n);
    // The selector alone: the keys decode as an empty list.
    expect(hdWalletUtils.gas(encode("getMultisigScriptHash", [1, []]).slice(0, 4), context)).toBe(20_000n);
  });

  it("is active from RSKIP-106 and runs on a fork", () => {
    expect(hdWalletUtils.isActive(context.chainspec, 0)).toBe(true);
    expect(hdWalletUtils.runsOnFork).toBe(true);
    expect(bytesToPrefixedHex(hdWalletUtils.address)).toBe("0x0000000000000000000000000000000001000009");
  });
});

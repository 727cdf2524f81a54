/**
 * The HDWalletUtils native contract at 0x…01000009 (RSKIP-106; docs/protocol/native-contracts.md §5): Base58Check,
 * BIP-32 public derivation and P2SH multisig script hashes, each at a fixed price with no charge per input byte.
 */
import {precompiledAddress} from "../../precompiles/addresses.ts";
import {abiFunction} from "../dispatch/abi.ts";
import {nativeMethodsContract, refuse} from "../dispatch/nativeMethods.ts";
import type {NativeContract} from "../dispatch/types.ts";
import {base58check, deriveAlong, NAME, parseExtendedKey, parsePath} from "./extendedKeys.ts";
import {multisigGas, multisigScriptHash} from "./multisig.ts";

const HASH160_LENGTH = 20;

/** The HDWalletUtils contract. */
export const hdWalletUtils: NativeContract = nativeMethodsContract({
  name: NAME,
  address: precompiledAddress(0x01000009),
  isActive: (chainspec, blockNumber) => chainspec.isActive("RSKIP106", blockNumber),
  // Stateless: it runs on a fork as anywhere (docs/forking.md §6).
  runsOnFork: true,
  methods: [
    {
      fn: abiFunction("toBase58Check", ["bytes", "int256"], ["string"]),
      gas: () => 13_000n,
      execute: ([hash, version]) => {
        const bytes = hash as Uint8Array;
        if (bytes.length !== HASH160_LENGTH) {
          refuse(NAME, "toBase58Check", `Invalid hash160 (should be 20 bytes and is ${bytes.length} bytes)`);
        }
        const v = version as bigint;
        if (v < 0n || v > 255n) refuse(NAME, "toBase58Check", "version must be a numeric value between 0 and 255");
        return base58check.encode(Uint8Array.of(Number(v), ...bytes));
      },
    },
    {
      fn: abiFunction("deriveExtendedPublicKey", ["string", "string"], ["string"]),
      gas: () => 107_000n,
      execute: ([xpub, path]) => {
        const key = parseExtendedKey("deriveExtendedPublicKey", xpub as string);
        const levels = parsePath("deriveExtendedPublicKey", path as string);
        return deriveAlong("deriveExtendedPublicKey", key, levels).publicExtendedKey;
      },
    },
    {
      fn: abiFunction("extractPublicKeyFromExtendedPublicKey", ["string"], ["bytes"]),
      gas: () => 11_300n,
      execute: ([xpub]) =>
        parseExtendedKey("extractPublicKeyFromExtendedPublicKey", xpub as string).publicKey as Uint8Array,
    },
    {
      fn: abiFunction("getMultisigScriptHash", ["int256", "bytes[]"], ["bytes"]),
      gas: ([, keys]) => multisigGas(keys as Uint8Array[]),
      execute: ([m, keys]) => multisigScriptHash(m as bigint, keys as Uint8Array[]),
    },
  ],
});

/**
 * eth_getProof (EIP-1186, docs/protocol/proofs.md §1): account and storage proofs at a block. They prove
 * the state the node reads after the block: after a dev control edited it (anvil_setBalance…), the
 * edited state's root, which is not the header's stateRoot (docs/rpc.md §4.10 "State").
 */
import {EMPTY_TRIE_ROOT} from "@xchain/state";
import {bigIntToFixedBytes, bytesToBigInt, keccak256, toData, toQuantity} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {blockRef} from "../../params/blockRef.ts";
import {type Codec, jsonType, ParamError, withSchema} from "../../params/codec.ts";
import {address, word} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {stateAt} from "../../resolve/blocks.ts";

const EMPTY_CODE_HASH = toData(keccak256(new Uint8Array(0)));
const EMPTY_STORAGE_HASH = toData(EMPTY_TRIE_ROOT);
const KEY = /^0x[0-9a-fA-F]{1,64}$/;

/** A storage key as asked: the slot, and the key as the answer gives it. */
interface StorageKey {
  slot: Uint8Array;
  echo: string;
}

/**
 * `0x` and 1 to 64 hex digits; answered as a QUANTITY whatever its length, as the spec types it
 * (docs/rpc.md §2.10; geth answers a 32-byte key as DATA32, for its older clients).
 */
const storageKey: Codec<StorageKey> = (value, path) => {
  if (typeof value !== "string") throw new ParamError(path, `expected a hex string, got ${jsonType(value)}`);
  if (!KEY.test(value)) throw new ParamError(path, "expected 0x and 1 to 64 hex digits");
  const number = BigInt(value);
  return {slot: bigIntToFixedBytes(number, 32), echo: toQuantity(number)};
};

/** An array of storage keys, at most `max` of them (`rpc.proofs.maxStorageKeys`). */
function storageKeys(max: number): Codec<StorageKey[]> {
  return withSchema({type: "array", maxItems: max, items: word.schema}, (value, path) => {
    if (!Array.isArray(value)) throw new ParamError(path, `expected an array, got ${jsonType(value)}`);
    if (value.length > max) {
      throw new ParamError(path, `${value.length} keys, more than rpc.proofs.maxStorageKeys (${max})`);
    }
    return value.map((key, i) => storageKey(key, `${path}[${i}]`));
  });
}

/** eth_getProof. */
export function ethProofMethods({
  chain,
  options,
  pendingBlock,
}: Pick<ModuleDeps, "chain" | "options" | "pendingBlock">): Record<string, RpcMethod> {
  return {
    /** Handler for `eth_getProof`: proofs root first against the block's (effective) state root and the account's storageHash */
    getProof: method(
      [
        param("address", address),
        param("storageKeys", storageKeys(options.proofs.maxStorageKeys)),
        param("block", blockRef),
      ],
      async (account, keys, block) => {
        const state = await stateAt(chain, block, options, pendingBlock);
        const [found, accountProof] = await Promise.all([state.getAccount(account), state.accountProof(account)]);
        const storageProof = await Promise.all(
          keys.map(async ({slot, echo}) => {
            const [value, proof] = await Promise.all([
              state.getStorage(account, slot),
              state.storageProof(account, slot),
            ]);
            return {key: echo, value: toQuantity(bytesToBigInt(value)), proof: proof.map(toData)};
          }),
        );
        return {
          address: toData(account),
          accountProof: accountProof.map(toData),
          balance: toQuantity(found?.balance ?? 0n),
          codeHash: found ? toData(found.codeHash) : EMPTY_CODE_HASH,
          nonce: toQuantity(found?.nonce ?? 0n),
          storageHash: found ? toData(found.storageRoot) : EMPTY_STORAGE_HASH,
          storageProof,
        };
      },
    ),
  };
}

/**
 * The `personal` namespace (docs/rpc.md §4.7, docs/protocol/keystore.md §3). With the keystore,
 * keys are managed as keyfiles and unlocked accounts sign beside the dev accounts. The dev accounts
 * have no passphrase and are always unlocked: passphrases given for them are accepted and ignored.
 * Without the keystore, key management is not offered.
 */
import {publicKeyOf, toData} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {callRequest} from "../params/callObject.ts";
import {type Codec, jsonType, ParamError, string, withSchema} from "../params/codec.ts";
import {address, looseHex, quantityNumber} from "../params/hex.ts";
import {method, optional, param} from "../params/method.ts";
import {unsupportedMethods} from "./unsupported.ts";
import {requireAccount, sendFromWallet} from "./walletActions.ts";

/**
 * An unlock duration in milliseconds (docs/protocol/keystore.md §3): a JSON number is seconds
 * (geth), a `0x` string milliseconds (rskj); 0 means until locked.
 */
export const unlockDuration: Codec<number> = withSchema(
  {
    oneOf: [
      {type: "integer", minimum: 0, description: "seconds"},
      {...quantityNumber.schema, description: "milliseconds"},
    ],
  },
  (value, path) => {
    if (typeof value === "number") {
      if (!Number.isSafeInteger(value) || value < 0)
        throw new ParamError(path, "expected a non-negative number of seconds");
      return value * 1000;
    }
    if (typeof value === "string") return quantityNumber(value, path);
    throw new ParamError(path, `expected seconds as a number or milliseconds as a hex string, got ${jsonType(value)}`);
  },
);

/** A 32-byte secp256k1 private key, `0x` optional. */
const privateKey: Codec<Uint8Array> = withSchema({type: "string", pattern: "^(0x)?[0-9a-fA-F]{64}$"}, (value, path) => {
  const key = looseHex(value, path);
  if (key.length !== 32) throw new ParamError(path, "expected a 32-byte private key");
  try {
    publicKeyOf(key);
  } catch {
    throw new ParamError(path, "not a valid secp256k1 private key");
  }
  return key;
});

/** personal_* methods. */
export function personalMethods({
  chain,
  wallet,
  keystore,
  txpool,
  miner,
}: Pick<ModuleDeps, "chain" | "wallet" | "keystore" | "txpool" | "miner">): Record<string, RpcMethod> {
  const common = {
    /** Handler for `personal_sendTransaction`: a stored key decrypted with the passphrase, else a dev account */
    sendTransaction: method(
      [param("transaction", callRequest), param("passphrase", string)],
      async (request, pass, context) => {
        const stored =
          request.from && keystore ? await keystore.decryptedWallet(request.from, pass, context.signal) : undefined;
        return sendFromWallet(stored ?? wallet, request, {
          txpool,
          miner,
          minimumGasPrice: chain.head().header.minimumGasPrice,
        });
      },
    ),
  };
  if (!keystore) {
    return {
      ...common,
      /** Handler for `personal_listAccounts` */
      listAccounts: method([], () => (wallet?.accounts() ?? []).map(toData)),
      /** Handler for `personal_unlockAccount`: true for an account the wallet holds */
      unlockAccount: method(
        [param("address", address), param("passphrase", string), optional("duration", unlockDuration)],
        (account) => {
          requireAccount(wallet, account);
          return true;
        },
      ),
      ...unsupportedMethods(
        ["dumpRawKey", "importRawKey", "lockAccount", "newAccount", "newAccountWithSeed"],
        "the keystore is off (wallet.keystore): the dev wallet has fixed accounts and no key management",
      ),
    };
  }
  return {
    ...common,
    /** Handler for `personal_listAccounts`: the stored accounts, then the other accounts that sign (dev, seed) */
    listAccounts: method([], () => {
      const seen = new Set<string>();
      return [...keystore.storedAccounts(), ...(wallet?.accounts() ?? [])]
        .map(toData)
        .filter((a) => !seen.has(a) && seen.add(a));
    }),
    /** Handler for `personal_newAccount` */
    newAccount: method([param("passphrase", string)], async (pass, context) =>
      toData(await keystore.newAccount(pass, context.signal)),
    ),
    /** Handler for `personal_newAccountWithSeed`: keccak256(seed), in memory only */
    newAccountWithSeed: method([param("seed", string)], (seed) => toData(keystore.addSeedAccount(seed))),
    /** Handler for `personal_importRawKey` */
    importRawKey: method([param("key", privateKey), param("passphrase", string)], async (key, pass, context) =>
      toData(await keystore.importRawKey(key, pass, context.signal)),
    ),
    /** Handler for `personal_dumpRawKey`: refused unless wallet.allowDumpRawKey */
    dumpRawKey: method([param("address", address)], (account) => toData(keystore.dumpRawKey(account))),
    /** Handler for `personal_unlockAccount`: a stored account is decrypted; a dev account is always unlocked */
    unlockAccount: method(
      [param("address", address), param("passphrase", string), optional("duration", unlockDuration)],
      async (account, pass, durationMs, context) => {
        if (await keystore.unlock(account, pass, durationMs, context.signal)) return true;
        return wallet?.hasAccount(account) ?? false;
      },
    ),
    /** Handler for `personal_lockAccount`: whether it was unlocked */
    lockAccount: method([param("address", address)], (account) => keystore.lock(account)),
  };
}

/**
 * A `DevWallet` over private keys held in memory: what the node gives RPC on regtest, where the
 * cow accounts are the dev accounts (docs/protocol/networks.md §3).
 */
import {publicKeyToAddress, Transaction, type TransactionValues} from "@xchain/primitives";
import {bytesToHex, concatBytes, keccak256, publicKeyOf, signHash, utf8ToBytes} from "@xchain/utils";
import type {DevWallet} from "./deps.ts";

/**
 * keccak256("\x19Ethereum Signed Message:\n" + decimal length + message), the hash eth_sign signs
 * (docs/rpc.md §4.4).
 */
export function personalMessageHash(message: Uint8Array): Uint8Array {
  return keccak256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${message.length}`), message));
}

/** Accounts from private keys, signing for one chain id. */
export class PrivateKeyWallet implements DevWallet {
  private readonly keys = new Map<string, {address: Uint8Array; privateKey: Uint8Array}>();

  constructor(
    privateKeys: readonly Uint8Array[],
    private readonly chainId: number,
  ) {
    for (const privateKey of privateKeys) this.add(privateKey);
  }

  /** Holds one more key; its address. */
  add(privateKey: Uint8Array): Uint8Array {
    const address = publicKeyToAddress(publicKeyOf(privateKey));
    this.keys.set(bytesToHex(address), {address, privateKey});
    return address;
  }

  /** Forgets the key of `address`; whether it was held. */
  remove(address: Uint8Array): boolean {
    return this.keys.delete(bytesToHex(address));
  }

  /** The private key of a held account. */
  privateKeyOf(address: Uint8Array): Uint8Array {
    return this.keyOf(address);
  }

  accounts(): Uint8Array[] {
    return [...this.keys.values()].map((k) => k.address);
  }

  hasAccount(address: Uint8Array): boolean {
    return this.keys.has(bytesToHex(address));
  }

  signTransaction(from: Uint8Array, values: TransactionValues): Transaction {
    return Transaction.sign(values, this.keyOf(from), this.chainId);
  }

  signMessage(from: Uint8Array, message: Uint8Array): Uint8Array {
    return this.signDigest(from, personalMessageHash(message));
  }

  signDigest(from: Uint8Array, digest: Uint8Array): Uint8Array {
    const {r, s, recovery} = signHash(digest, this.keyOf(from));
    return concatBytes(r, s, Uint8Array.of(27 + recovery));
  }

  private keyOf(address: Uint8Array): Uint8Array {
    const key = this.keys.get(bytesToHex(address));
    if (!key) throw new RangeError(`no key for 0x${bytesToHex(address)}`);
    return key.privateKey;
  }
}

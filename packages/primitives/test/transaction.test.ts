import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, equalBytes, hexToBytes, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {
  createRemascTransaction,
  encodeRlp,
  isRemascTransaction,
  MAX_CHAIN_ID,
  publicKeyToAddress,
  REMASC_ADDRESS,
  type RlpItem,
  SECP256K1_N,
  Transaction,
  TransactionDecodeError,
  TransactionDecodeErrorCode,
  TransactionField,
  TransactionSignatureError,
  TransactionSignatureErrorCode,
  type TransactionValues,
} from "../src/index.ts";

interface RemascVectors {
  remascTx: Record<"block1" | "block3", {rlp: string; hash: string}>;
}
interface Accounts {
  accounts: {seed: string; privateKey: string; address: string}[];
}

const cow = readJsonVector<Accounts>("regtest-accounts.json").accounts[0]!;
const cowKey = hexToBytes(cow.privateKey);
const regtest = {chainId: 33};

const transfer: TransactionValues = {
  nonce: 0n,
  gasPrice: 0n,
  gasLimit: 21_000n,
  to: hexToBytes("0x3535353535353535353535353535353535353535"),
  value: 10n ** 18n,
  data: new Uint8Array(0),
};

/** Re-encodes `tx` with some raw fields replaced. */
function withFields(tx: Transaction, replace: Partial<Record<TransactionField, RlpItem>>): Uint8Array {
  const fields: RlpItem[] = [...tx.receivedFields];
  for (const [i, value] of Object.entries(replace)) fields[Number(i)] = value;
  return encodeRlp(fields);
}

function decodeError(bytes: Uint8Array, options = regtest): TransactionDecodeErrorCode {
  try {
    Transaction.decode(bytes, options);
  } catch (e) {
    expect(e).toBeInstanceOf(TransactionDecodeError);
    return (e as TransactionDecodeError).code;
  }
  throw new Error("decoded without error");
}

describe("REMASC transaction vectors", () => {
  const {remascTx} = readJsonVector<RemascVectors>("remasc-tx-and-trie-roots.json");
  for (const [name, blockNumber] of [
    ["block1", 1],
    ["block3", 3],
  ] as const) {
    it(`${name}: encoding and hash`, () => {
      const tx = createRemascTransaction(blockNumber);
      expect(bytesToHex(tx.encode())).toBe(remascTx[name].rlp);
      expect(bytesToHex(tx.hash())).toBe(remascTx[name].hash);
      expect(tx.nonce).toBe(BigInt(blockNumber - 1));
      expect(isRemascTransaction(tx)).toBe(true);
      expect(tx.sender()).toEqual(new Uint8Array(20));
    });

    it(`${name}: decodes only in the block-body context`, () => {
      const bytes = hexToBytes(remascTx[name].rlp);
      const tx = Transaction.decode(bytes, {chainId: 33, allowRemasc: true});
      expect(isRemascTransaction(tx)).toBe(true);
      expect(tx.v).toBeUndefined();
      expect(bytesToHex(tx.hash())).toBe(remascTx[name].hash);
      expect(decodeError(bytes)).toBe(TransactionDecodeErrorCode.UNSIGNED);
    });
  }

  it("rejects block numbers below 1", () => {
    expect(() => createRemascTransaction(0)).toThrow(RangeError);
  });

  it("a signed transaction to REMASC is not the REMASC transaction", () => {
    const tx = Transaction.sign({...transfer, to: REMASC_ADDRESS, value: 0n, gasLimit: 0n}, cowKey, 33);
    expect(isRemascTransaction(tx)).toBe(false);
  });
});

describe("known answers", () => {
  // The worked example of EIP-155 (chain id 1).
  const eip155 = {
    key: hexToBytes("4646464646464646464646464646464646464646464646464646464646464646"),
    values: {
      nonce: 9n,
      gasPrice: 20_000_000_000n,
      gasLimit: 21_000n,
      to: hexToBytes("3535353535353535353535353535353535353535"),
      value: 10n ** 18n,
      data: new Uint8Array(0),
    },
    signingHash: "daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53",
    signed:
      "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939" +
      "bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1" +
      "966a3b6d83",
    sender: "9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f",
  };

  it("EIP-155 example: decode, signing hash, sender, hash", () => {
    const bytes = hexToBytes(eip155.signed);
    const tx = Transaction.decode(bytes, {chainId: 1});
    expect(tx.chainId).toBe(1);
    expect(tx.v).toBe(37);
    expect(tx.nonce).toBe(9n);
    expect(bytesToHex(tx.signingHash())).toBe(eip155.signingHash);
    expect(bytesToHex(tx.sender())).toBe(eip155.sender);
    expect(bytesToHex(tx.encode())).toBe(eip155.signed);
    expect(tx.hash()).toEqual(keccak256(bytes));
  });

  it("EIP-155 example: signing reproduces the transaction (RFC 6979)", () => {
    const tx = Transaction.sign(eip155.values, eip155.key, 1);
    expect(bytesToHex(tx.encode())).toBe(eip155.signed);
  });

  it("the regtest cow account signs as 0xcd2a3d9f…d826", () => {
    expect(bytesToHex(publicKeyToAddress(publicKeyOf(cowKey)))).toBe(cow.address.slice(2));
    const bytes = Transaction.sign(transfer, cowKey, 33).encode();
    expect(`0x${bytesToHex(Transaction.decode(bytes, regtest).sender())}`).toBe(cow.address);
  });
});

describe("sign → encode → decode → sender", () => {
  const keys = readJsonVector<Accounts>("regtest-accounts.json").accounts.map((a) => hexToBytes(a.privateKey));

  for (const chainId of [30, 31, 33]) {
    it(`chain id ${chainId}`, () => {
      for (const [i, key] of keys.entries()) {
        const tx = Transaction.sign({...transfer, nonce: BigInt(i)}, key, chainId);
        const decoded = Transaction.decode(tx.encode(), {chainId});
        expect(decoded.chainId).toBe(chainId);
        expect([chainId * 2 + 35, chainId * 2 + 36]).toContain(decoded.v);
        expect(decoded.sender()).toEqual(publicKeyToAddress(publicKeyOf(key)));
        expect(decoded.hash()).toEqual(tx.hash());
      }
    });
  }

  it("without a chain id: v 27 and 28, accepted on any chain", () => {
    const seen = new Set<number>();
    for (let nonce = 0n; seen.size < 2; nonce++) {
      const tx = Transaction.sign({...transfer, nonce}, cowKey);
      const decoded = Transaction.decode(tx.encode(), {chainId: 30});
      expect(decoded.chainId).toBeUndefined();
      expect(bytesToHex(decoded.sender())).toBe(cow.address.slice(2));
      expect(decoded.signingHash()).toEqual(keccak256(encodeRlp(tx.receivedFields.slice(0, 6) as Uint8Array[])));
      seen.add(decoded.v!);
    }
    expect([...seen].sort()).toEqual([27, 28]);
  });

  it("a contract creation has no `to` and an empty string on the wire", () => {
    const tx = Transaction.sign({...transfer, to: undefined, data: utf8ToBytes("init")}, cowKey, 33);
    const decoded = Transaction.decode(tx.encode(), regtest);
    expect(decoded.to).toBeUndefined();
    expect(decoded.receivedFields[TransactionField.to]).toEqual(new Uint8Array(0));
  });

  it("refuses chain ids a one-byte v cannot carry", () => {
    expect(() => Transaction.sign(transfer, cowKey, MAX_CHAIN_ID + 1)).toThrow(RangeError);
    expect(Transaction.sign(transfer, cowKey, MAX_CHAIN_ID).v).toBeLessThanOrEqual(255);
  });

  it("chain id 0 signs like no chain id (rskj)", () => {
    expect(Transaction.sign(transfer, cowKey, 0).encode()).toEqual(Transaction.sign(transfer, cowKey).encode());
  });

  it("property: decode(encode(sign(x))) keeps every field and the sender", () => {
    const key = fc.bigInt({min: 1n, max: SECP256K1_N - 1n}).map((k) => hexToBytes(k.toString(16).padStart(64, "0")));
    const values = fc.record({
      nonce: fc.bigInt({min: 0n, max: 2n ** 256n - 1n}),
      gasPrice: fc.bigInt({min: 0n, max: 2n ** 255n - 1n}),
      gasLimit: fc.bigInt({min: 0n, max: 2n ** 256n - 1n}),
      to: fc.option(fc.uint8Array({minLength: 20, maxLength: 20}), {nil: undefined}),
      value: fc.bigInt({min: 0n, max: 2n ** 255n - 1n}),
      data: fc.uint8Array({maxLength: 80}),
    });
    const chainId = fc.option(fc.integer({min: 1, max: MAX_CHAIN_ID}), {nil: undefined});
    fc.assert(
      fc.property(values, key, chainId, (v, k, id) => {
        const signed = Transaction.sign(v, k, id);
        const tx = Transaction.decode(signed.encode(), {chainId: id ?? 33});
        const {nonce, gasPrice, gasLimit, to, value, data, chainId: decodedChainId} = tx;
        expect({nonce, gasPrice, gasLimit, to, value, data, chainId: decodedChainId}).toEqual({...v, chainId: id});
        expect([tx.v, tx.r, tx.s]).toEqual([signed.v, signed.r, signed.s]);
        expect(tx.encode()).toEqual(signed.encode());
        expect(tx.sender()).toEqual(publicKeyToAddress(publicKeyOf(k)));
      }),
      {numRuns: 2000},
    );
  });
});

describe("Transaction.decode errors", () => {
  const good = Transaction.sign(transfer, cowKey, 33);
  const halfN = SECP256K1_N / 2n;
  const big = (n: bigint) => hexToBytes(n.toString(16).padStart(64, "0"));
  const C = TransactionDecodeErrorCode;

  const cases: [string, Uint8Array, TransactionDecodeErrorCode][] = [
    ["an EIP-2930 envelope", Uint8Array.of(0x01, 0xc0), C.TYPED_TRANSACTION_UNSUPPORTED],
    ["an EIP-1559 envelope", Uint8Array.of(0x02, ...good.encode()), C.TYPED_TRANSACTION_UNSUPPORTED],
    ["empty input", new Uint8Array(0), C.BAD_RLP],
    [
      "a typed transaction in its network form (an RLP string)",
      Uint8Array.of(0x82, 0x02, 0xc0),
      C.TYPED_TRANSACTION_UNSUPPORTED,
    ],
    ["an empty RLP string", Uint8Array.of(0x80), C.TYPED_TRANSACTION_UNSUPPORTED],
    ["a malformed RLP string", Uint8Array.of(0x82, 0x02), C.BAD_RLP],
    ["truncated RLP", good.encode().subarray(0, 40), C.BAD_RLP],
    ["trailing bytes", Uint8Array.of(...good.encode(), 0), C.BAD_RLP],
    ["8 fields", encodeRlp(good.receivedFields.slice(0, 8) as Uint8Array[]), C.WRONG_FIELD_COUNT],
    ["10 fields", encodeRlp([...good.receivedFields, new Uint8Array(0)]), C.WRONG_FIELD_COUNT],
    ["data as a list", withFields(good, {[TransactionField.data]: []}), C.FIELD_IS_LIST],
    ["a 19-byte to", withFields(good, {[TransactionField.to]: new Uint8Array(19)}), C.BAD_TO],
    ["a 21-byte to", withFields(good, {[TransactionField.to]: new Uint8Array(21)}), C.BAD_TO],
    ["a 33-byte nonce", withFields(good, {[TransactionField.nonce]: new Uint8Array(33)}), C.NUMBER_OUT_OF_RANGE],
    ["a 33-byte gasLimit", withFields(good, {[TransactionField.gasLimit]: new Uint8Array(33)}), C.NUMBER_OUT_OF_RANGE],
    ["gasPrice 2^255", withFields(good, {[TransactionField.gasPrice]: big(2n ** 255n)}), C.NUMBER_OUT_OF_RANGE],
    ["value 2^255", withFields(good, {[TransactionField.value]: big(2n ** 255n)}), C.NUMBER_OUT_OF_RANGE],
    ["a two-byte v", withFields(good, {[TransactionField.v]: Uint8Array.of(0, 101)}), C.BAD_V],
    ["v 0", withFields(good, {[TransactionField.v]: Uint8Array.of(0)}), C.BAD_V],
    ["v 26", withFields(good, {[TransactionField.v]: Uint8Array.of(26)}), C.BAD_V],
    ["v 29", withFields(good, {[TransactionField.v]: Uint8Array.of(29)}), C.BAD_V],
    ["v 34", withFields(good, {[TransactionField.v]: Uint8Array.of(34)}), C.BAD_V],
    ["chain id 30 on regtest", withFields(good, {[TransactionField.v]: Uint8Array.of(95)}), C.FOREIGN_CHAIN_ID],
    ["chain id 110", withFields(good, {[TransactionField.v]: Uint8Array.of(255)}), C.FOREIGN_CHAIN_ID],
    ["a 33-byte r", withFields(good, {[TransactionField.r]: new Uint8Array(33).fill(1)}), C.SIGNATURE_TOO_LONG],
    ["a 33-byte s", withFields(good, {[TransactionField.s]: new Uint8Array(33).fill(1)}), C.SIGNATURE_TOO_LONG],
    ["r zero", withFields(good, {[TransactionField.r]: new Uint8Array(0)}), C.SIGNATURE_OUT_OF_RANGE],
    ["r = n", withFields(good, {[TransactionField.r]: big(SECP256K1_N)}), C.SIGNATURE_OUT_OF_RANGE],
    ["s zero", withFields(good, {[TransactionField.s]: Uint8Array.of(0)}), C.SIGNATURE_OUT_OF_RANGE],
    ["s = n - 1", withFields(good, {[TransactionField.s]: big(SECP256K1_N - 1n)}), C.HIGH_S],
    ["s = floor(n/2)", withFields(good, {[TransactionField.s]: big(halfN)}), C.HIGH_S],
    ["no signature", withFields(good, {6: new Uint8Array(0), 7: new Uint8Array(0), 8: new Uint8Array(0)}), C.UNSIGNED],
  ];

  for (const [name, bytes, code] of cases) {
    it(`${name} → ${code}`, () => expect(decodeError(bytes)).toBe(code));
  }

  it("s = floor(n/2) - 1 is accepted", () => {
    const bytes = withFields(good, {[TransactionField.s]: big(halfN - 1n)});
    expect(Transaction.decode(bytes, regtest).s).toBe(halfN - 1n);
  });

  it("the typed-transaction error names the type", () => {
    const envelope = Uint8Array.of(0x02, 0xc0);
    const networkForm = Uint8Array.of(0x82, 0x01, 0xc0);
    for (const [bytes, txType] of [
      [envelope, 2],
      [networkForm, 1],
    ] as const) {
      try {
        Transaction.decode(bytes, regtest);
        expect.unreachable();
      } catch (e) {
        expect((e as TransactionDecodeError).type).toEqual({code: C.TYPED_TRANSACTION_UNSUPPORTED, txType});
      }
    }
  });

  it("typed-error metadata names the offending value", () => {
    try {
      Transaction.decode(withFields(good, {[TransactionField.v]: Uint8Array.of(97)}), regtest);
      expect.unreachable();
    } catch (e) {
      expect((e as TransactionDecodeError).type).toEqual({code: C.FOREIGN_CHAIN_ID, chainId: 31, expected: 33});
    }
  });

  it("an unsigned transaction is refused even in a block body unless it is REMASC", () => {
    const remasc = createRemascTransaction(5);
    const block = {chainId: 33, allowRemasc: true};
    const unsigned = {6: new Uint8Array(0), 7: new Uint8Array(0), 8: new Uint8Array(0)};
    expect(decodeError(withFields(good, unsigned), block)).toBe(C.UNSIGNED);
    expect(decodeError(withFields(remasc, {[TransactionField.value]: Uint8Array.of(1)}), block)).toBe(C.UNSIGNED);
    expect(decodeError(withFields(remasc, {[TransactionField.data]: Uint8Array.of(1)}), block)).toBe(C.UNSIGNED);
    expect(decodeError(withFields(remasc, {[TransactionField.r]: Uint8Array.of(1)}), block)).toBe(C.UNSIGNED);
  });

  it("a signature no public key matches fails sender() with UNRECOVERABLE", () => {
    // Half of all x coordinates are not on the curve; walk r = 1, 2, … until one is not.
    for (let r = 1n; ; r++) {
      const tx = Transaction.decode(withFields(good, {[TransactionField.r]: big(r).subarray(31)}), regtest);
      try {
        tx.sender();
      } catch (e) {
        expect(e).toBeInstanceOf(TransactionSignatureError);
        expect((e as TransactionSignatureError).code).toBe(TransactionSignatureErrorCode.UNRECOVERABLE);
        return;
      }
    }
  });
});

describe("hash normalisation (docs/protocol/transactions.md)", () => {
  const signed = Transaction.sign(transfer, cowKey, 33);
  const same = (bytes: Uint8Array) => {
    const tx = Transaction.decode(bytes, regtest);
    expect(bytesToHex(tx.hash())).toBe(bytesToHex(signed.hash()));
    expect(tx.encode()).toEqual(signed.encode());
    expect(tx.receivedFields).not.toEqual(signed.receivedFields);
    return tx;
  };
  const different = (bytes: Uint8Array) => {
    const tx = Transaction.decode(bytes, regtest);
    expect(equalBytes(tx.hash(), signed.hash())).toBe(false);
    expect(tx.encode()).toEqual(bytes);
  };

  it("nonce 0x00 hashes as 0x80, and the sender is unchanged", () => {
    expect(signed.receivedFields[TransactionField.nonce]).toEqual(new Uint8Array(0));
    const tx = same(withFields(signed, {[TransactionField.nonce]: Uint8Array.of(0)}));
    expect(tx.sender()).toEqual(signed.sender());
  });

  it("a longer nonce with leading zeros is kept as received", () => {
    different(withFields(signed, {[TransactionField.nonce]: Uint8Array.of(0, 0)}));
  });

  it("gasPrice zero is kept as received: 0x00 or empty", () => {
    expect(bytesToHex(signed.receivedFields[TransactionField.gasPrice]!)).toBe("00");
    different(withFields(signed, {[TransactionField.gasPrice]: new Uint8Array(0)}));
    same(withFields(signed, {[TransactionField.gasPrice]: Uint8Array.of(0, 0)}));
  });

  it("a non-zero gasPrice and the value are re-encoded minimal", () => {
    const priced = Transaction.sign({...transfer, gasPrice: 5n, value: 0n}, cowKey, 33);
    const padded = withFields(priced, {[TransactionField.gasPrice]: Uint8Array.of(0, 5)});
    expect(Transaction.decode(padded, regtest).hash()).toEqual(priced.hash());
    const zeroValue = withFields(priced, {[TransactionField.value]: Uint8Array.of(0)});
    expect(Transaction.decode(zeroValue, regtest).encode()).toEqual(priced.encode());
  });

  it("gasLimit is kept as received", () => {
    different(withFields(signed, {[TransactionField.gasLimit]: Uint8Array.of(0, 0x52, 0x08)}));
  });

  it("r and s are re-encoded minimal", () => {
    const padded = withFields(signed, {
      [TransactionField.r]: Uint8Array.of(0, 0, 7),
      [TransactionField.s]: Uint8Array.of(0, 9),
    });
    const minimal = withFields(signed, {
      [TransactionField.r]: Uint8Array.of(7),
      [TransactionField.s]: Uint8Array.of(9),
    });
    expect(Transaction.decode(padded, regtest).encode()).toEqual(minimal);
  });

  it("v 35/36 (chain id 0) re-encodes as 27/28 and signs without a chain id, as rskj", () => {
    const legacy = Transaction.sign(transfer, cowKey);
    const v = legacy.v! + 8;
    const tx = Transaction.decode(withFields(legacy, {[TransactionField.v]: Uint8Array.of(v)}), regtest);
    expect(tx.chainId).toBeUndefined();
    expect(tx.v).toBe(legacy.v);
    expect(tx.hash()).toEqual(legacy.hash());
    expect(tx.sender()).toEqual(legacy.sender());
  });
});

const alice = hexToBytes("0x1111111111111111111111111111111111111111");
const bob = hexToBytes("0x2222222222222222222222222222222222222222");

describe("impersonated transactions (docs/rpc.md §4.10)", () => {
  it("carry their sender: sender() answers it without recovery", () => {
    const tx = Transaction.impersonate(transfer, alice, 33);
    expect(tx.sender()).toEqual(alice);
    expect(tx.impersonatedSender).toEqual(alice);
    expect(tx.chainId).toBe(33);
  });

  it("the signature names the sender: r = 2^160 + sender, s = 1, v the chain id's with recovery 0", () => {
    const tx = Transaction.impersonate(transfer, alice, 33);
    expect(tx.r).toBe((1n << 160n) + BigInt("0x1111111111111111111111111111111111111111"));
    expect(tx.s).toBe(1n);
    expect(tx.v).toBe(33 * 2 + 35);
    expect(tx.impersonationClaim()).toEqual(alice);
  });

  it("the hash is keccak-256 of the encoding and differs between two senders of the same fields", () => {
    const fromAlice = Transaction.impersonate(transfer, alice, 33);
    const fromBob = Transaction.impersonate(transfer, bob, 33);
    expect(fromAlice.hash()).toEqual(keccak256(fromAlice.encode()));
    expect(equalBytes(fromAlice.hash(), fromBob.hash())).toBe(false);
    // The same sender and fields: the same transaction.
    expect(Transaction.impersonate(transfer, alice, 33).hash()).toEqual(fromAlice.hash());
  });

  it("the zero address can be impersonated too (r stays non-zero)", () => {
    const zero = new Uint8Array(20);
    const tx = Transaction.impersonate(transfer, zero, 33);
    expect(tx.impersonationClaim()).toEqual(zero);
    expect(Transaction.decode(tx.encode(), {chainId: 33}).impersonationClaim()).toEqual(zero);
  });

  it("decoded, the sender is not believed: it is recovered unless asImpersonated() says so", () => {
    const tx = Transaction.impersonate(transfer, alice, 33);
    const decoded = Transaction.decode(tx.encode(), {chainId: 33});
    expect(decoded.impersonatedSender).toBeUndefined();
    expect(decoded.impersonationClaim()).toEqual(alice);
    let recovered: Uint8Array | undefined;
    try {
      recovered = decoded.sender();
    } catch {
      // No key matches (r, s): an impersonation signature need not recover at all.
    }
    if (recovered) expect(equalBytes(recovered, alice)).toBe(false);
    const restored = decoded.asImpersonated();
    expect(restored.sender()).toEqual(alice);
    expect(restored.hash()).toEqual(tx.hash());
    expect(restored.encode()).toEqual(tx.encode());
  });

  it("a signed transaction names no sender and cannot be taken as impersonated", () => {
    const signed = Transaction.sign(transfer, cowKey, 33);
    expect(signed.impersonationClaim()).toBeUndefined();
    expect(signed.impersonatedSender).toBeUndefined();
    expect(() => signed.asImpersonated()).toThrow(RangeError);
  });

  it("refuses a sender that is not 20 bytes", () => {
    expect(() => Transaction.impersonate(transfer, new Uint8Array(19), 33)).toThrow(RangeError);
  });
});

describe("a signer recovered elsewhere (signerRecoveryInput, adoptSignerPublicKey)", () => {
  const received = () => Transaction.decode(Transaction.sign(transfer, cowKey, 33).encode(), regtest);
  const otherKey = keccak256(utf8ToBytes("another signer"));

  it("the input is the transaction's signing hash and signature; the key taken is what sender() answers", () => {
    const tx = received();
    const input = tx.signerRecoveryInput();
    expect(input).toEqual({signingHash: tx.signingHash(), r: tx.r, s: tx.s, recovery: (tx.v as number) - 35 - 66});
    // The adopted key is used as it is, without recovery: the caller answers for it.
    tx.adoptSignerPublicKey(input!, publicKeyOf(otherKey));
    expect(tx.sender()).toEqual(publicKeyToAddress(publicKeyOf(otherKey)));
    expect(tx.signerRecoveryInput()).toBeUndefined();
  });

  it("an answer for another transaction's signing hash or signature is refused, and the sender is still recovered", () => {
    const tx = received();
    const other = Transaction.decode(Transaction.sign({...transfer, nonce: 1n}, cowKey, 33).encode(), regtest);
    const theirs = other.signerRecoveryInput()!;
    const mine = tx.signerRecoveryInput()!;
    const key = publicKeyOf(otherKey);
    expect(() => tx.adoptSignerPublicKey(theirs, key)).toThrow(RangeError);
    expect(() => tx.adoptSignerPublicKey({...mine, r: theirs.r}, key)).toThrow(RangeError);
    expect(() => tx.adoptSignerPublicKey({...mine, recovery: 1 - mine.recovery}, key)).toThrow(RangeError);
    expect(() => tx.adoptSignerPublicKey(mine, key.subarray(1))).toThrow(RangeError);
    expect(bytesToHex(tx.sender())).toBe(cow.address.replace(/^0x/, "").toLowerCase());
  });

  it("a signer already known is kept; REMASC and impersonated transactions have nothing to recover", () => {
    const tx = received();
    const input = tx.signerRecoveryInput()!;
    const sender = tx.sender();
    tx.adoptSignerPublicKey(input, publicKeyOf(otherKey));
    expect(tx.sender()).toEqual(sender);
    expect(createRemascTransaction(1).signerRecoveryInput()).toBeUndefined();
    expect(Transaction.impersonate(transfer, new Uint8Array(20).fill(1), 33).signerRecoveryInput()).toBeUndefined();
  });
});

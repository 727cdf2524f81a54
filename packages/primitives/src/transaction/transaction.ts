/**
 * A legacy Rootstock transaction (docs/protocol/transactions.md). It keeps the nine RLP elements as received, because
 * rskj hashes its own re-encoding of the parsed fields, which normalises some number encodings
 * but keeps others exactly as given; a block body re-encodes the elements as received.
 */
import {bytesToBigInt, equalBytes, keccak256, signHash} from "@xchain/utils";
import {encodeCoinNonNullZero, encodeCoinNullZero, encodeUnsigned} from "../rlp/numbers.ts";
import {decodeRlp, encodeRlp, RlpError, type RlpItem} from "../rlp/rlp.ts";
import {TransactionDecodeError, TransactionDecodeErrorCode} from "./errors.ts";
import {
  ADDRESS_LENGTH,
  TRANSACTION_FIELD_COUNT,
  type TransactionDecodeOptions,
  TransactionField,
  type TransactionValues,
} from "./fields.ts";
import {impersonationClaim, impersonationSignature} from "./impersonation.ts";
import {isRemascTransaction, REMASC_ADDRESS, REMASC_SENDER} from "./remasc.ts";
import {
  encodeV,
  MAX_CHAIN_ID,
  parseSignature,
  publicKeyToAddress,
  recoverSignerPublicKey,
  type TransactionSignature,
} from "./signature.ts";

const EMPTY = new Uint8Array(0);

/** A transaction's signing hash and signature: what recovering its signer takes (`signerRecoveryInput`). */
export interface SignerRecoveryInput {
  signingHash: Uint8Array;
  r: bigint;
  s: bigint;
  /** The ECDSA recovery id, 0 or 1. */
  recovery: number;
}

/** A decoded or signed legacy transaction: typed fields, the raw elements, hash, signing hash and sender. */
export class Transaction implements Readonly<TransactionValues> {
  readonly nonce: bigint;
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  readonly to: Uint8Array | undefined;
  readonly value: bigint;
  readonly data: Uint8Array;
  /** The v that `encode()` writes: 27/28, or chainId·2 + 35/36; undefined for the unsigned REMASC transaction. */
  readonly v: number | undefined;
  /** 0 when unsigned. */
  readonly r: bigint;
  /** 0 when unsigned. */
  readonly s: bigint;
  /** The EIP-155 chain id; undefined for v 27/28, and for v 35/36 (chain id 0), which rskj treats as 27/28. */
  readonly chainId: number | undefined;
  /** The nine RLP elements exactly as received (views into the decoded buffer) or as built. */
  readonly receivedFields: readonly Uint8Array[];
  /**
   * The sender a dev node carries for an impersonated transaction (impersonation.ts), which `sender()`
   * answers without recovery; undefined for every signed or received transaction.
   */
  readonly impersonatedSender: Uint8Array | undefined;

  private readonly signature: TransactionSignature | undefined;
  private cachedHash?: Uint8Array;
  private cachedSigningHash?: Uint8Array;
  private cachedSender?: Uint8Array;
  private cachedPublicKey?: Uint8Array;

  private constructor(raw: Uint8Array[], options: TransactionDecodeOptions, impersonatedSender?: Uint8Array) {
    this.receivedFields = raw;
    this.impersonatedSender = impersonatedSender;
    const field = (i: TransactionField) => raw[i] as Uint8Array;
    this.nonce = numberField(field(TransactionField.nonce), "nonce", 256);
    this.gasPrice = numberField(field(TransactionField.gasPrice), "gasPrice", 255);
    this.gasLimit = numberField(field(TransactionField.gasLimit), "gasLimit", 256);
    const to = field(TransactionField.to);
    if (to.length !== 0 && to.length !== ADDRESS_LENGTH) {
      throw new TransactionDecodeError(
        {code: TransactionDecodeErrorCode.BAD_TO, length: to.length},
        `tx: to has ${to.length} bytes, expected 0 or 20`,
      );
    }
    this.to = to.length === 0 ? undefined : to;
    this.value = numberField(field(TransactionField.value), "value", 255);
    this.data = field(TransactionField.data);

    const [v, r, s] = [field(TransactionField.v), field(TransactionField.r), field(TransactionField.s)];
    if (v.length === 0) {
      this.v = undefined;
      this.r = 0n;
      this.s = 0n;
      this.chainId = undefined;
      if (!options.allowRemasc || r.length > 0 || s.length > 0 || !isRemascTransaction(this)) {
        throw new TransactionDecodeError(
          {code: TransactionDecodeErrorCode.UNSIGNED},
          "tx: unsigned, and not the REMASC transaction of a block body",
        );
      }
    } else {
      this.signature = parseSignature(v, r, s, options.chainId);
      this.chainId = this.signature.chainId;
      this.v = encodeV(this.signature.recovery, this.chainId);
      this.r = this.signature.r;
      this.s = this.signature.s;
    }
  }

  /**
   * Decodes a legacy transaction. Typed (EIP-2718) transactions, unsigned transactions (unless
   * `allowRemasc` and it is the REMASC transaction), foreign chain ids and malleable signatures are refused.
   */
  static decode(bytes: Uint8Array, options: TransactionDecodeOptions): Transaction {
    const first = bytes[0];
    // An EIP-2718 envelope starts with its type byte (0x00-0x7f), which is not RLP framing.
    if (first !== undefined && first < 0x80) throw typedTransaction(first);
    let item: RlpItem;
    try {
      item = decodeRlp(bytes);
    } catch (e) {
      if (e instanceof RlpError) {
        throw new TransactionDecodeError(
          {code: TransactionDecodeErrorCode.BAD_RLP, reason: e.code},
          `tx: ${e.message}`,
        );
      }
      throw e;
    }
    return Transaction.fromRlpItem(item, options);
  }

  /**
   * Builds a transaction from an already-decoded RLP item (an element of a block body's
   * transaction list). A byte string there is a typed transaction in its network form.
   */
  static fromRlpItem(item: RlpItem, options: TransactionDecodeOptions): Transaction {
    if (!Array.isArray(item)) throw typedTransaction(item[0]);
    if (item.length !== TRANSACTION_FIELD_COUNT) {
      throw new TransactionDecodeError(
        {code: TransactionDecodeErrorCode.WRONG_FIELD_COUNT, count: item.length},
        `tx has ${item.length} fields, expected 9`,
      );
    }
    const raw = item.map((field, i) => {
      if (field instanceof Uint8Array) return field;
      const name = TransactionField[i] as string;
      throw new TransactionDecodeError(
        {code: TransactionDecodeErrorCode.FIELD_IS_LIST, field: name},
        `tx: ${name} is a list, expected a byte string`,
      );
    });
    return new Transaction(raw, options);
  }

  /**
   * Signs `values` with rskj's encodings (nonce and gasLimit minimal, gasPrice zero as `0x00`,
   * value zero empty). Without `chainId` (or with 0, which rskj treats alike) v is 27/28.
   */
  static sign(values: TransactionValues, privateKey: Uint8Array, chainId?: number): Transaction {
    const id = signingChainId(chainId);
    const fields = payloadOf(values);
    const {r, s, recovery} = signHash(signingHashOf(fields, id), privateKey);
    const signature = [encodeUnsigned(BigInt(encodeV(recovery, id))), minimal(r), minimal(s)];
    return new Transaction([...fields, ...signature], {chainId: id ?? 0});
  }

  /**
   * The impersonated transaction of `sender` (20 bytes): `values` encoded as `sign` encodes them,
   * the signature of impersonation.ts, and `sender` carried instead of recovered. Only a dev node
   * builds one, for a sender its dev controls impersonate (docs/rpc.md §4.10).
   */
  static impersonate(values: TransactionValues, sender: Uint8Array, chainId?: number): Transaction {
    const id = signingChainId(chainId);
    const {r, s} = impersonationSignature(sender);
    const signature = [encodeUnsigned(BigInt(encodeV(0, id))), encodeUnsigned(r), encodeUnsigned(s)];
    return new Transaction([...payloadOf(values), ...signature], {chainId: id ?? 0}, sender.slice());
  }

  /**
   * The sender an impersonation signature names (impersonation.ts), or undefined for any other
   * signature: what a block store checks before it looks up whether the transaction is one of its own
   * impersonated ones. A transaction of that form received from elsewhere is not believed.
   */
  impersonationClaim(): Uint8Array | undefined {
    return this.signature && impersonationClaim(this.r, this.s);
  }

  /**
   * This transaction with the sender its impersonation signature names carried, not recovered: a
   * dev node's own impersonated transaction read back from its store. A RangeError for any other
   * signature.
   */
  asImpersonated(): Transaction {
    const sender = this.impersonationClaim();
    if (!sender) throw new RangeError("not an impersonated transaction: its signature names no sender");
    return new Transaction([...this.receivedFields], {chainId: this.chainId ?? 0}, sender);
  }

  /**
   * rskj's encoding of the parsed transaction (docs/protocol/transactions.md), which `hash()` covers: nonce `0x00`
   * becomes empty, a zero gasPrice stays `0x00` or empty as received, value and r/s are minimal,
   * v is 27/28 for chain id 0; gasLimit, to and data are kept as received.
   */
  encode(): Uint8Array {
    const signature = this.signature
      ? [encodeUnsigned(BigInt(this.v as number)), encodeUnsigned(this.r), encodeUnsigned(this.s)]
      : [EMPTY, EMPTY, EMPTY];
    return encodeRlp([...this.payloadFields(), ...signature]);
  }

  /** The transaction hash: keccak-256 of `encode()`. */
  hash(): Uint8Array {
    this.cachedHash ??= keccak256(this.encode());
    return this.cachedHash;
  }

  /** The hash the sender signs: the six payload fields, plus `[chainId, empty, empty]` under EIP-155. */
  signingHash(): Uint8Array {
    this.cachedSigningHash ??= signingHashOf(this.payloadFields(), this.chainId);
    return this.cachedSigningHash;
  }

  /**
   * What recovering the signer elsewhere (a worker thread, `SenderRecovery` in the chain package)
   * needs: the signing hash and the signature. Undefined when there is nothing to recover: the
   * unsigned REMASC transaction, an impersonated one, or a signer already recovered.
   */
  signerRecoveryInput(): SignerRecoveryInput | undefined {
    const signature = this.signature;
    if (this.impersonatedSender || !signature || this.cachedPublicKey) return undefined;
    return {signingHash: this.signingHash(), r: signature.r, s: signature.s, recovery: signature.recovery};
  }

  /**
   * Takes `publicKey` (64 bytes), recovered elsewhere from `input`, as this transaction's signer, so
   * that `sender()` does not recover it again. Taken only when `input` is exactly this transaction's
   * own signing hash and signature (an answer for another transaction is refused with a RangeError);
   * the caller answers for the recovery itself. A signer already known is kept.
   */
  adoptSignerPublicKey(input: SignerRecoveryInput, publicKey: Uint8Array): void {
    const own = this.signerRecoveryInput();
    if (!own) return;
    if (
      publicKey.length !== 64 ||
      input.r !== own.r ||
      input.s !== own.s ||
      input.recovery !== own.recovery ||
      !equalBytes(input.signingHash, own.signingHash)
    ) {
      throw new RangeError("the recovered public key is not for this transaction's signing hash and signature");
    }
    this.cachedPublicKey = publicKey;
  }

  /**
   * The 20-byte sender recovered from the signature (the zero address for REMASC, as in rskj), or
   * the impersonated sender carried.
   */
  sender(): Uint8Array {
    if (this.impersonatedSender) return this.impersonatedSender;
    if (!this.signature) return REMASC_SENDER;
    this.cachedSender ??= publicKeyToAddress(this.signerPublicKey() as Uint8Array);
    return this.cachedSender;
  }

  /**
   * The 64-byte public key (no 0x04 prefix) recovered from the signature; undefined for the unsigned
   * REMASC transaction and an impersonated one, which no key signed. The Bridge's `releaseBtc` pays
   * its Bitcoin address.
   */
  signerPublicKey(): Uint8Array | undefined {
    if (this.impersonatedSender || !this.signature) return undefined;
    this.cachedPublicKey ??= recoverSignerPublicKey(this.signingHash(), this.signature);
    return this.cachedPublicKey;
  }

  /** The six payload fields with rskj's re-encoding rules (docs/protocol/transactions.md). */
  private payloadFields(): Uint8Array[] {
    const raw = this.receivedFields;
    const nonce = raw[TransactionField.nonce] as Uint8Array;
    const gasPrice = raw[TransactionField.gasPrice] as Uint8Array;
    return [
      nonce.length === 1 && nonce[0] === 0 ? EMPTY : nonce,
      gasPrice.length === 0 ? EMPTY : encodeCoinNonNullZero(this.gasPrice),
      raw[TransactionField.gasLimit] as Uint8Array,
      raw[TransactionField.to] as Uint8Array,
      encodeCoinNullZero(this.value),
      this.data,
    ];
  }
}

/**
 * The unsigned REMASC transaction that closes block `blockNumber` (docs/protocol/fees.md §2), as rskj's
 * RemascTransaction builds it: nonce blockNumber − 1, gasPrice and gasLimit the single byte `0x00`.
 */
export function createRemascTransaction(blockNumber: number): Transaction {
  if (!Number.isSafeInteger(blockNumber) || blockNumber < 1) throw new RangeError(`bad block number ${blockNumber}`);
  const zero = Uint8Array.of(0);
  const fields = [
    encodeUnsigned(BigInt(blockNumber - 1)),
    zero,
    zero,
    REMASC_ADDRESS,
    EMPTY,
    EMPTY,
    EMPTY,
    EMPTY,
    EMPTY,
  ];
  return Transaction.fromRlpItem(fields, {chainId: 0, allowRemasc: true});
}

/** The chain id `sign` and `impersonate` write: undefined for none or 0 (v 27/28); a RangeError beyond a one-byte v. */
function signingChainId(chainId: number | undefined): number | undefined {
  if (chainId !== undefined && (!Number.isInteger(chainId) || chainId < 0 || chainId > MAX_CHAIN_ID)) {
    throw new RangeError(`chain id ${chainId} does not fit a one-byte v`);
  }
  return chainId === 0 ? undefined : chainId;
}

/** The six payload fields with rskj's encodings (nonce and gasLimit minimal, gasPrice zero as `0x00`, value zero empty). */
function payloadOf(values: TransactionValues): Uint8Array[] {
  return [
    encodeUnsigned(values.nonce),
    encodeCoinNonNullZero(values.gasPrice),
    encodeUnsigned(values.gasLimit),
    values.to ?? EMPTY,
    encodeCoinNullZero(values.value),
    values.data,
  ];
}

function typedTransaction(txType: number | undefined): TransactionDecodeError {
  return new TransactionDecodeError(
    {code: TransactionDecodeErrorCode.TYPED_TRANSACTION_UNSUPPORTED, txType},
    `tx: typed transaction${txType === undefined ? "" : ` of type ${txType}`} is not supported, only legacy transactions`,
  );
}

function signingHashOf(payload: Uint8Array[], chainId: number | undefined): Uint8Array {
  const fields = chainId === undefined ? payload : [...payload, encodeUnsigned(BigInt(chainId)), EMPTY, EMPTY];
  return keccak256(encodeRlp(fields));
}

function minimal(bytes: Uint8Array): Uint8Array {
  return encodeUnsigned(bytesToBigInt(bytes));
}

/**
 * rskj's Transaction.validate: a numeric field has at most 32 bytes; gasPrice and value are Coins
 * whose two's-complement form must fit 32 bytes as well, so they stay below 2^255.
 */
function numberField(raw: Uint8Array, field: string, maxBits: number): bigint {
  const value = bytesToBigInt(raw);
  if (raw.length > 32 || value >> BigInt(maxBits) !== 0n) {
    throw new TransactionDecodeError(
      {code: TransactionDecodeErrorCode.NUMBER_OUT_OF_RANGE, field},
      `tx: ${field} exceeds ${maxBits} bits or 32 bytes`,
    );
  }
  return value;
}

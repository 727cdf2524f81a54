export {Block, type BlockDecodeOptions} from "./block/block.ts";
export {BlockDecodeError, BlockDecodeErrorCode, type BlockDecodeErrorType} from "./block/errors.ts";
export {EMPTY_UNCLES_HASH, unclesHash} from "./block/uncles.ts";
export {bloomContains, bloomOr, logsBloom} from "./bloom.ts";
export {HeaderDecodeError, HeaderDecodeErrorCode, type HeaderDecodeErrorType} from "./header/errors.ts";
export {HeaderField, type HeaderValues, LOGS_BLOOM_LENGTH, type MergedMiningFields} from "./header/fields.ts";
export {BlockHeader, type HeaderEncodingRules, RSKIP92_FROM_GENESIS} from "./header/header.ts";
export {ReceiptDecodeError, ReceiptDecodeErrorCode, type ReceiptDecodeErrorType} from "./receipt/errors.ts";
export type {Log} from "./receipt/log.ts";
export {Receipt} from "./receipt/receipt.ts";
export {
  decodeSafeInteger,
  encodeCoinNonNullZero,
  encodeCoinNullZero,
  encodeSigned,
  encodeUnsigned,
  NumberError,
  NumberErrorCode,
  type NumberErrorType,
} from "./rlp/numbers.ts";
export {
  asBytes,
  asList,
  decodeRlp,
  decodeRlpList,
  encodeRlp,
  MAX_RLP_DEPTH,
  RlpError,
  RlpErrorCode,
  type RlpErrorType,
  type RlpItem,
} from "./rlp/rlp.ts";
export {
  TransactionDecodeError,
  TransactionDecodeErrorCode,
  type TransactionDecodeErrorType,
  TransactionSignatureError,
  TransactionSignatureErrorCode,
  type TransactionSignatureErrorType,
} from "./transaction/errors.ts";
export {TransactionField, type TransactionValues} from "./transaction/fields.ts";
export {
  closingRemascTransaction,
  isRemascTransaction,
  misplacedRemascIndex,
  REMASC_ADDRESS,
  REMASC_SENDER,
} from "./transaction/remasc.ts";
export {MAX_CHAIN_ID, publicKeyToAddress, SECP256K1_N} from "./transaction/signature.ts";
export {createRemascTransaction, type SignerRecoveryInput, Transaction} from "./transaction/transaction.ts";

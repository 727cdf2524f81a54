import "./polyfills.ts";

export {writeFileAtomically} from "./atomicFile.ts";
export {
  bigIntToBytes,
  bigIntToFixedBytes,
  bigIntToSignedBytes,
  bytesToBigInt,
  bytesToHex,
  bytesToPrefixedHex,
  compareBytes,
  concatBytes,
  equalBytes,
  hexToBytes,
  hexToBytesOrNull,
  lastIndexOfBytes,
  readUint32LE,
  reverseBytes,
  utf8ToBytes,
  writeUint32BE,
  writeUint32LE,
} from "./bytes.ts";
export type {CacheUsage} from "./cacheUsage.ts";
export {hash160, keccak256, keccakBackend, sha256, sha256d} from "./crypto/hash.ts";
export {publicKeyForms, publicKeyOf, recoverPublicKey, secp256k1Backend, signHash} from "./crypto/secp256k1.ts";
export {DirectoryError, DirectoryErrorCode, type DirectoryErrorType, makeDirectory} from "./directory.ts";
export {NodeError} from "./errors.ts";
export {type EventListeners, subscribe} from "./events.ts";
export {
  HexError,
  HexErrorCode,
  type HexErrorType,
  parseData,
  parseQuantity,
  parseQuantityNumber,
  toData,
  toQuantity,
} from "./hex.ts";
export {
  type CidrBlock,
  cidrContains,
  type IpAddress,
  type IpAddressOrRange,
  isLoopback,
  isLoopbackHost,
  parseIp,
  parseIpAddressOrRange,
} from "./ip.ts";
export {
  answersById,
  FIRST_BACKOFF_MS,
  type HttpAnswer,
  isLimitError,
  paceRequests,
  postJson,
  quoteBody,
  type RpcAnswer,
  readAnswer,
  redactUrl,
  TransientFailure,
  withoutCredentials,
  withRetries,
} from "./jsonRpcHttp.ts";
export {type LogFn, type Logger, noopLogger} from "./logger.ts";
export {RepeatedErrorLog} from "./repeatedErrorLog.ts";
export {SerialQueue} from "./serialQueue.ts";
export {type RateLimit, TokenBucket} from "./tokenBucket.ts";

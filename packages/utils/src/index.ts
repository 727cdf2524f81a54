import "./polyfills.ts";

export * from "./bytes.ts";
export * from "./crypto/hash.ts";
export * from "./crypto/secp256k1.ts";
export * from "./errors.ts";
export * from "./hex.ts";
export {type LogFn, type Logger, noopLogger} from "./logger.ts";
export * from "./serialQueue.ts";

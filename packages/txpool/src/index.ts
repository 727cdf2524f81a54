export * from "./errors.ts";
export * from "./options.ts";
export * from "./txPool.ts";
export * from "./types.ts";
export {POOL_GAS_PRICE_CAP_MULTIPLIER, replacementGasPrice} from "./validate/rules.ts";

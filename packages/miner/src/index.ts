export * from "./deps.ts";
export * from "./errors.ts";
export {bitcoinNonceFromEthNonce, ethWorkPowValue} from "./ethWork.ts";
export * from "./miner.ts";
export * from "./options.ts";
export type {BlockTemplate} from "./template/blockTemplate.ts";
export {type GasLimitInput, nextGasLimit} from "./template/gasLimit.ts";
export {nextMinimumGasPrice} from "./template/minimumGasPrice.ts";
export * from "./types.ts";

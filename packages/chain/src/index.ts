export * from "./chain.ts";
export * from "./errors.ts";
export * from "./genesis.ts";
export type {BlockExecutorApi} from "./import/blockImporter.ts";
export {type ChainOptions, defaultChainOptions} from "./options.ts";
export * from "./types.ts";

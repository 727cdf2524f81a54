export * from "./chain.ts";
export * from "./errors.ts";
export * from "./genesis.ts";
export type {BlockExecutorApi} from "./import/blockImporter.ts";
export * from "./types.ts";

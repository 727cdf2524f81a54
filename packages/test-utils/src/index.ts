export * from "./accounts.ts";
export * from "./chainBuilder.ts";
export * from "./memoryStore.ts";
export * from "./sealHeader.ts";
export * from "./solidity.ts";
export * from "./vectors.ts";

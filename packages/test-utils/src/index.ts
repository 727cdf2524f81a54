export * from "./accounts.ts";
export * from "./chainBuilder.ts";
export * from "./sealHeader.ts";
export * from "./solidity.ts";
export * from "./vectors.ts";

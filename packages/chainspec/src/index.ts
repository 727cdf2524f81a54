export * from "./chainspec.ts";
export * from "./networks/mainnet.ts";
export * from "./networks/regtest.ts";
export * from "./networks/testnet.ts";
export * from "./types.ts";

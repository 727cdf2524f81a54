export * from "./header/errors.ts";
export * from "./header/fields.ts";
export * from "./header/header.ts";
export * from "./rlp/numbers.ts";
export * from "./rlp/rlp.ts";

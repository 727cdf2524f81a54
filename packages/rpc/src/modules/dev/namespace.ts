/** The two prefixes of the dev controls; where anvil and Hardhat answer differently and a client reads it, a group asks which. */
export type DevNamespace = "anvil" | "hardhat";

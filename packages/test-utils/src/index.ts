export {cowAccounts, type DevAccount} from "./accounts.ts";
export {type BuildBlockOptions, ChainBuilder, headerValues} from "./chainBuilder.ts";
export {FREE_PORT_SETTINGS, freePortFlags} from "./nodeFlags.ts";
export {sealHeader} from "./sealHeader.ts";
export {makeSelfSignedCertificate, type SelfSignedCertificate} from "./selfSigned.ts";
export {type CompiledContract, compileSolidity} from "./solidity.ts";
export {TRACE_CHILD_SOURCE} from "./traceContracts.ts";
export {readJsonVector, readMainnetHeaderLines, vectorPath, vectorsDir} from "./vectors.ts";
export {type JsonRpcReply, type Notification, WsClient} from "./wsClient.ts";

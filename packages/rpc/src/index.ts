export type {CallCacheStats} from "./caches/callCache.ts";
export {DappDb, DappDbError, DappDbErrorCode, type DappDbErrorType, type DappDbModules} from "./dappDb.ts";
export type {
  AdminNodeInfo,
  AdminPeerInfo,
  DappStore,
  DevWallet,
  ForkControls,
  ForkHistory,
  ForkInfo,
  ForkNativeStorage,
  HealthProbe,
  Keystore,
  LoggingSwitch,
  PeerAdmin,
  PeerScoringAdmin,
  PeersInfo,
  Readiness,
  ReforkRequest,
  RpcDeps,
  SyncStatus,
  SyncStatusSource,
  WireQueue,
} from "./deps.ts";
export {createdContractAddress} from "./format/receipt.ts";
export {describeRevert} from "./format/revert.ts";
export {
  type ApiKeyRecord,
  DEFAULT_NAMESPACES,
  defaultKeyLimits,
  defaultKeyPermissions,
  GatewayError,
  GatewayErrorCode,
  type KeyLimits,
  type KeyPermissions,
  type KeysFile,
  KeysFileError,
  parseKeysFile,
  readKeysFile,
  writeKeysFile,
} from "./gateway/keysFile.ts";
export {hashSecret, newKeyId, newSecret} from "./gateway/secret.ts";
export {RpcError, RpcErrorCode, type RpcErrorObject} from "./jsonrpc/errors.ts";
export {MethodRegistry} from "./jsonrpc/registry.ts";
export type {RateLimitedEvent, RequestEvent, RpcEvents} from "./jsonrpc/requestEvents.ts";
export {KeystoreBusyCode, KeystoreBusyError, type KeystoreBusyType} from "./keystoreBusy.ts";
export {KeyfileErrorCode, KeystoreErrorCode} from "./keystoreRefusals.ts";
export {forkHistory} from "./modules/forkHistory.ts";
export {formatClientVersion} from "./modules/web3.ts";
export {
  type DappDbOptions,
  DEV_METHODS,
  defaultRpcOptions,
  type IpLimitOptions,
  isModuleEnabledByDefault,
  REVERT_ERROR_STYLES,
  type RevertErrorStyle,
  RPC_MODULE_NAMES,
  type RpcOptions,
  type RpcTlsOptions,
} from "./options.ts";
export {NO_PEERS, NOT_SYNCING, RpcServer} from "./server.ts";
export {type HealthAnswer, healthAnswer} from "./transport/health.ts";
export {type Listener, listen} from "./transport/listener.ts";
export {TlsConfigError, TlsConfigErrorCode} from "./transport/tls.ts";
export {PrivateKeyWallet, personalMessageHash} from "./wallet.ts";

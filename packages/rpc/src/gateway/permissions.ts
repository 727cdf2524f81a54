/**
 * Which methods a key may call (docs/gateway.md): those of its namespaces, restricted methods
 * (`xchain_getStorageBytesAt`) and dev methods outside the dev namespaces (`eth_sendUnsignedTransaction`)
 * excepted, and those it is granted by name.
 */
import {DEV_METHODS, RESTRICTED_METHODS} from "../options.ts";
import type {KeyPermissions} from "./keysFile.ts";

/** Why the key may not call `method`, or undefined when it may. */
export function permissionRefusal(permissions: KeyPermissions, keyId: string, method: string): string | undefined {
  if (permissions.methods.includes(method)) return undefined;
  const namespace = method.slice(0, method.indexOf("_"));
  if (RESTRICTED_METHODS.includes(method)) return `it is restricted and API key ${keyId} is not granted it`;
  const devNamespace = DEV_METHODS[method];
  if (devNamespace !== undefined) {
    if (permissions.namespaces.includes(devNamespace)) return undefined;
    return `it is a development control of the ${devNamespace} namespace and API key ${keyId} is not granted it`;
  }
  if (permissions.namespaces.includes(namespace)) return undefined;
  return `API key ${keyId} is not granted the ${namespace} namespace`;
}

import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {makeSelfSignedCertificate} from "@xchain/test-utils";
import {describe, expect, it} from "vitest";
import {loadTlsCredentials, TlsConfigError} from "../../../src/transport/tls.ts";

describe("loadTlsCredentials", () => {
  const pair = makeSelfSignedCertificate();
  const other = makeSelfSignedCertificate("other");

  it("is undefined with neither file, and reads a matching certificate and key", async () => {
    expect(await loadTlsCredentials({})).toBeUndefined();
    const credentials = await loadTlsCredentials({cert: pair.certPath, key: pair.keyPath});
    expect(credentials?.cert.toString()).toBe(pair.cert);
    expect(credentials?.key.toString()).toBe(pair.key);
  });

  it("refuses one file alone, an unreadable or invalid one and a key of another certificate, naming the setting", async () => {
    const garbage = join(pair.certPath, "..", "garbage.pem");
    writeFileSync(garbage, "not a pem\n");
    const cases: [{cert?: string; key?: string}, RegExp][] = [
      [{cert: pair.certPath}, /^rpc\.tls\.cert is set without rpc\.tls\.key$/],
      [{key: pair.keyPath}, /^rpc\.tls\.key is set without rpc\.tls\.cert$/],
      [
        {cert: "/nonexistent/cert.pem", key: pair.keyPath},
        /^rpc\.tls\.cert: cannot read \/nonexistent\/cert\.pem \(ENOENT\)$/,
      ],
      [{cert: pair.certPath, key: "/nonexistent/key.pem"}, /^rpc\.tls\.key: cannot read/],
      [{cert: garbage, key: pair.keyPath}, /^rpc\.tls\.cert: .* not a PEM certificate/],
      [{cert: pair.keyPath, key: pair.keyPath}, /^rpc\.tls\.cert: .* not a PEM certificate/],
      [{cert: pair.certPath, key: garbage}, /^rpc\.tls\.key: .* not a PEM private key/],
      [{cert: pair.certPath, key: other.keyPath}, /^rpc\.tls\.key: .* does not match rpc\.tls\.cert/],
    ];
    for (const [options, message] of cases) {
      const error = await loadTlsCredentials(options).catch((e: unknown) => e);
      expect(error, JSON.stringify(options)).toBeInstanceOf(TlsConfigError);
      expect((error as Error).message, JSON.stringify(options)).toMatch(message);
      expect((error as Error).message).not.toContain("\n");
    }
  });
});

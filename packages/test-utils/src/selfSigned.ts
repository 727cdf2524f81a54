/**
 * A self-signed certificate for `localhost` and `127.0.0.1`, made at test time with the `openssl`
 * command (P-256, valid one day), for HTTPS and WSS tests.
 */
import {execFileSync} from "node:child_process";
import {mkdtempSync, readFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";

/** The PEM files of a self-signed certificate and their contents. */
export interface SelfSignedCertificate {
  certPath: string;
  keyPath: string;
  /** The certificate: what a client trusts (`ca`). */
  cert: string;
  key: string;
}

/** Makes a certificate with `openssl req -x509` in a fresh temporary directory. */
export function makeSelfSignedCertificate(commonName = "localhost"): SelfSignedCertificate {
  const dir = mkdtempSync(join(tmpdir(), "xchain-tls-"));
  const certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${commonName}`,
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      keyPath,
      "-out",
      certPath,
    ],
    {stdio: "ignore"},
  );
  return {certPath, keyPath, cert: readFileSync(certPath, "utf8"), key: readFileSync(keyPath, "utf8")};
}

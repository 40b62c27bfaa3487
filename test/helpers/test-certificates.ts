import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Certificates made at test time with the openssl command line (no key material in the
// repository): a test CA, and leaf certificates it signs for chosen names and validity windows
// (`openssl ca` takes any start and end date, so an expired certificate is one call too).

export interface TestCertificate {
  key: string;
  cert: string;
}

export interface TestCa {
  /** The CA certificate (PEM), what a tls monitor's `ca` or an agent's `ca` trusts. */
  cert: string;
  /** A leaf for `names` ("DNS:vigil.test", "IP:127.0.0.1"), valid from/to the given times. */
  issue(options: { names: string[]; notBefore: Date; notAfter: Date }): TestCertificate;
  remove(): void;
}

const openssl = (args: string[], cwd: string) =>
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });

/** "20260102030405Z", the form `openssl ca` takes dates in. */
const asn1Time = (date: Date) => `${date.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;

export const daysFromNow = (days: number): Date => new Date(Date.now() + days * 86_400_000);

/** A fresh CA in a temporary directory (EC P-256 keys: quick to make). */
export function createTestCa(name = "Vigil Test CA"): TestCa {
  const dir = mkdtempSync(join(tmpdir(), "vigil-ca-"));
  const file = (name: string) => join(dir, name);
  openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key"], dir);
  openssl(
    [
      "req",
      "-x509",
      "-new",
      "-key",
      "ca.key",
      "-sha256",
      "-days",
      "30",
      "-subj",
      `/CN=${name}`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
      "-out",
      "ca.pem",
    ],
    dir,
  );
  writeFileSync(file("index.txt"), "");
  writeFileSync(file("serial"), "1000\n");
  writeFileSync(
    file("ca.cnf"),
    [
      "[ca]",
      "default_ca = test",
      "[test]",
      `dir = ${dir}`,
      `database = ${file("index.txt")}`,
      `new_certs_dir = ${dir}`,
      `serial = ${file("serial")}`,
      `certificate = ${file("ca.pem")}`,
      `private_key = ${file("ca.key")}`,
      "default_md = sha256",
      "policy = any",
      "unique_subject = no",
      "[any]",
      "commonName = supplied",
    ].join("\n"),
  );
  let count = 0;
  return {
    cert: readFileSync(file("ca.pem"), "utf8"),
    issue({ names, notBefore, notAfter }) {
      const id = `leaf${++count}`;
      const commonName = (names[0] ?? "leaf").replace(/^(DNS|IP):/, "");
      openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", `${id}.key`], dir);
      openssl(
        ["req", "-new", "-key", `${id}.key`, "-subj", `/CN=${commonName}`, "-out", `${id}.csr`],
        dir,
      );
      writeFileSync(
        file(`${id}.ext`),
        [
          "basicConstraints = CA:FALSE",
          "keyUsage = digitalSignature",
          "extendedKeyUsage = serverAuth",
          `subjectAltName = ${names.join(",")}`,
        ].join("\n"),
      );
      openssl(
        [
          "ca",
          "-batch",
          "-notext",
          "-config",
          "ca.cnf",
          "-in",
          `${id}.csr`,
          "-out",
          `${id}.pem`,
          "-startdate",
          asn1Time(notBefore),
          "-enddate",
          asn1Time(notAfter),
          "-extfile",
          `${id}.ext`,
        ],
        dir,
      );
      return {
        key: readFileSync(file(`${id}.key`), "utf8"),
        cert: readFileSync(file(`${id}.pem`), "utf8"),
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/**
 * Test certificates made here with node-forge (RSA keys from node:crypto, which is much faster
 * than forge's pure-JS key generation): a CA, A1 (PKCS#12) certificates for issuers with the
 * ICP-Brasil CNPJ OID 2.16.76.1.3.3 and a "NAME:CNPJ" CN, and TLS server certificates.
 * Used by the tests and by the simulator's sandbox CA (`npm run admin -- test-certificate`);
 * never by anything that talks to a real authority.
 */
export interface KeyAndCert {
  keyPem: string;
  certPem: string;
}

export interface A1 extends KeyAndCert {
  /** The PKCS#12 file as base64, as an upload would carry it. */
  pfxBase64: string;
  password: string;
  cnpj: string;
}

function rsaKeys(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; keyPem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  return { privateKey: forgeKey, publicKey, keyPem };
}

let serialCounter = 1;
function serial(): string {
  // DER INTEGER must be minimal: a leading 00 byte made OpenSSL (TLS, X509Certificate) refuse the
  // certificate ("illegal padding"). A fixed 01 first byte keeps it positive and minimal.
  return '01' + (Date.now().toString(16) + (serialCounter++).toString(16)).padStart(14, '0');
}

export type TestCa = KeyAndCert & { key: forge.pki.rsa.PrivateKey; cert: forge.pki.Certificate };

/** Rebuilds a CA saved as PEM (the simulator keeps its sandbox CA under var/). */
export function caFromPem(keyPem: string, certPem: string): TestCa {
  return { key: forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey, cert: forge.pki.certificateFromPem(certPem), keyPem, certPem };
}

export function createCa(name = 'AC Teste Fiscal'): TestCa {
  const { privateKey, publicKey, keyPem } = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const attrs = [{ name: 'commonName', value: name }, { name: 'countryName', value: 'BR' }, { name: 'organizationName', value: 'ICP-Brasil Teste' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true }]);
  cert.sign(privateKey, forge.md.sha256.create());
  return { key: privateKey, cert, keyPem, certPem: forge.pki.certificateToPem(cert) };
}

export interface A1Options {
  cnpj: string;
  razaoSocial?: string;
  password?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** Put the CNPJ only in the CN suffix, not in the ICP-Brasil OID. */
  cnOnly?: boolean;
  /** The certificate's key; a fresh RSA 2048 key when absent. */
  key?: forge.pki.rsa.PrivateKey;
}

/** An e-CNPJ A1 certificate signed by `ca`, packed as PKCS#12. */
export function createA1(ca: TestCa, opts: A1Options): A1 {
  const { privateKey, publicKey, keyPem } = opts.key
    ? { privateKey: opts.key, publicKey: forge.pki.setRsaPublicKey(opts.key.n, opts.key.e), keyPem: forge.pki.privateKeyToPem(opts.key) }
    : rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = opts.notBefore ?? new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = opts.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
  const name = opts.razaoSocial ?? 'EMPRESA TESTE LTDA';
  cert.setSubject([
    { name: 'commonName', value: `${name}:${opts.cnpj}` },
    { name: 'countryName', value: 'BR' },
    { name: 'organizationName', value: 'ICP-Brasil' },
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  const extensions: any[] = [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, keyEncipherment: true },
    { name: 'extKeyUsage', clientAuth: true, emailProtection: true },
  ];
  if (!opts.cnOnly) {
    // otherName 2.16.76.1.3.3 = CNPJ of the legal entity (ICP-Brasil DOC-ICP-04), as a PrintableString.
    const otherName = forge.asn1.create(forge.asn1.Class.CONTEXT_SPECIFIC, 0, true, [
      forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.OID, false, forge.asn1.oidToDer('2.16.76.1.3.3').getBytes()),
      forge.asn1.create(forge.asn1.Class.CONTEXT_SPECIFIC, 0, true, [
        forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.PRINTABLESTRING, false, opts.cnpj),
      ]),
    ]);
    const san = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [otherName]);
    extensions.push({ id: '2.5.29.17', critical: false, value: forge.asn1.toDer(san).getBytes() });
  }
  cert.setExtensions(extensions);
  cert.sign(ca.key, forge.md.sha256.create());
  const password = opts.password ?? 'senha-do-certificado';
  const p12 = forge.pkcs12.toPkcs12Asn1(privateKey, [cert, ca.cert], password, { algorithm: '3des' });
  const pfxBase64 = forge.util.encode64(forge.asn1.toDer(p12).getBytes());
  return { keyPem, certPem: forge.pki.certificateToPem(cert), pfxBase64, password, cnpj: opts.cnpj };
}

/** A TLS server certificate for `hosts` (DNS names or IPs) signed by `ca`. */
export function createServerCert(ca: TestCa, hosts: string[] = ['localhost', '127.0.0.1']): KeyAndCert {
  const { publicKey, keyPem } = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: hosts[0]! }]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: hosts.map((h) => (/^\d+\.\d+\.\d+\.\d+$/.test(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { keyPem, certPem: forge.pki.certificateToPem(cert) };
}

import { createHash } from 'node:crypto';
import forge from 'node-forge';
import { DomainError } from '../errors/index.js';
import { findUnstorableText } from '../http/unstorable-text.js';
import type { CertificateSummary } from './model.js';
import { checkPkcs12Iterations } from './pkcs12-iterations.js';

/**
 * Reads an A1 certificate (PKCS#12) and decides whether it may sign for an issuer. Refusals, all
 * 422: not a PKCS#12 (CERTIFICADO_INVALIDO), wrong password (CERTIFICADO_SENHA_INVALIDA), outside
 * its validity (CERTIFICADO_EXPIRADO / CERTIFICADO_AINDA_NAO_VALIDO), and a CNPJ other than the
 * issuer's (CERTIFICADO_CNPJ_DIVERGENTE). The CNPJ comes from the ICP-Brasil otherName
 * 2.16.76.1.3.3 of subjectAltName (DOC-ICP-04), or else from the `NOME:CNPJ` suffix of the CN.
 * The full 14-character CNPJ is compared, not the 8-character root: a branch's certificate signs
 * for that branch (SEFAZ checks the same, cStat 213 "CNPJ-Base do Emitente difere do CNPJ-Base
 * do Certificado" is only the weaker check).
 */
export const ICP_BRASIL_CNPJ_OID = '2.16.76.1.3.3';
/**
 * The largest RSA key an upload may carry. ICP-Brasil end-entity keys are RSA 2048 or 4096
 * (DOC-ICP-01.01); every note is signed with this key on the emission service's event loop, where a
 * 15360-bit key costs 0.28 s per signature (openssl speed; 2048 bits: 1 ms) and would slow every
 * partner's emissions on that node.
 */
export const MAX_RSA_KEY_BITS = 4096;
const SUBJECT_ALT_NAME_OID = '2.5.29.17';

export interface ParsedCertificate extends CertificateSummary {
  keyPem: string;
  certPem: string;
  chainPem: string[];
  /** SHA-256 of the certificate DER, hex. */
  fingerprint: string;
  /** Size of the RSA modulus. */
  keyBits: number;
}

function der(cert: forge.pki.Certificate): string {
  return forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
}

/** The CNPJ in the otherName 2.16.76.1.3.3 of subjectAltName, if any. */
function cnpjFromAltName(cert: forge.pki.Certificate): string | null {
  const ext = (cert.extensions as any[]).find((e) => e.id === SUBJECT_ALT_NAME_OID);
  if (!ext?.value) return null;
  let seq: forge.asn1.Asn1;
  try { seq = forge.asn1.fromDer(ext.value); } catch { return null; }
  for (const gn of (seq.value as forge.asn1.Asn1[]) ?? []) {
    // otherName is [0] { type-id OID, [0] EXPLICIT value }
    if (gn.tagClass !== forge.asn1.Class.CONTEXT_SPECIFIC || gn.type !== 0 || !Array.isArray(gn.value)) continue;
    const [oid, wrapped] = gn.value as forge.asn1.Asn1[];
    if (!oid || forge.asn1.derToOid(oid.value as string) !== ICP_BRASIL_CNPJ_OID) continue;
    const inner = Array.isArray(wrapped?.value) ? (wrapped!.value as forge.asn1.Asn1[])[0] : wrapped;
    if (inner && typeof inner.value === 'string') return inner.value.replace(/[^0-9A-Z]/gi, '').toUpperCase();
  }
  return null;
}

function cnpjFromCn(cert: forge.pki.Certificate): string | null {
  const cn = cert.subject.getField('CN')?.value as string | undefined;
  const m = cn?.match(/:([0-9A-Z]{12}\d{2})$/i);
  return m ? m[1]!.toUpperCase() : null;
}

function subjectString(cert: forge.pki.Certificate): string {
  return cert.subject.attributes.map((a) => `${a.shortName ?? a.name ?? a.type}=${a.value}`).join(', ');
}

function sameKey(cert: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey): boolean {
  const pub = cert.publicKey as forge.pki.rsa.PublicKey;
  return !!pub?.n && pub.n.equals(key.n);
}

/**
 * Opens the PKCS#12: wrong password and malformed files are told apart. No validity checks. A file
 * asking for more iterations than MAX_PKCS12_ITERATIONS is refused before any derivation. The
 * derivations themselves are synchronous pure-JS work: services run this off the event loop.
 */
export function readPkcs12(pfx: Buffer, password: string): ParsedCertificate {
  checkPkcs12Iterations(pfx);
  let p12: forge.pkcs12.Pkcs12Pfx;
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary')));
  } catch {
    throw new DomainError('CERTIFICADO_INVALIDO');
  }
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    // forge: "PKCS#12 MAC could not be verified. Invalid password?"; a bad key-bag decryption
    // without MAC shows up as an unparsable bag.
    if (/password|MAC could not be verified/i.test(msg)) throw new DomainError('CERTIFICADO_SENHA_INVALIDA');
    throw new DomainError('CERTIFICADO_INVALIDO');
  }
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const certs = (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).map((b) => b.cert).filter((c): c is forge.pki.Certificate => !!c);
  const key = keyBags.map((b) => b.key).find((k): k is forge.pki.rsa.PrivateKey => !!k);
  if (!key) {
    // A key bag that did not decrypt means the password was wrong (files without a MAC).
    if (keyBags.length) throw new DomainError('CERTIFICADO_SENHA_INVALIDA');
    throw new DomainError('CERTIFICADO_INVALIDO', undefined, 'PKCS#12 sem chave privada.');
  }
  const leaf = certs.find((c) => sameKey(c, key));
  if (!leaf) throw new DomainError('CERTIFICADO_INVALIDO', undefined, 'PKCS#12 sem o certificado da chave privada.');
  const leafDer = der(leaf);
  return {
    subject: subjectString(leaf),
    // Canonical hex: a non-minimal DER INTEGER (leading 00 before a byte < 0x80) is the same serial.
    serial: leaf.serialNumber.replace(/^(00)+(?=[0-7])/, '').toUpperCase(),
    notBefore: leaf.validity.notBefore.toISOString(),
    notAfter: leaf.validity.notAfter.toISOString(),
    cnpj: cnpjFromAltName(leaf) ?? cnpjFromCn(leaf) ?? '',
    keyPem: forge.pki.privateKeyToPem(key),
    certPem: forge.pki.certificateToPem(leaf),
    chainPem: certs.filter((c) => c !== leaf).map((c) => forge.pki.certificateToPem(c)),
    fingerprint: createHash('sha256').update(Buffer.from(leafDer, 'binary')).digest('hex'),
    keyBits: key.n.bitLength(),
  };
}

/** Full acceptance check of an upload for `issuerCnpj` at `now`. */
export function acceptCertificate(pfx: Buffer, password: string, issuerCnpj: string, now: Date): ParsedCertificate {
  const cert = readPkcs12(pfx, password);
  // The subject is kept (cert_summary, jsonb): U+0000 or a lone surrogate (a BMPString can carry
  // one) would fail that write with a 500. No ICP-Brasil certificate has either.
  if (findUnstorableText(cert.subject) !== null) {
    throw new DomainError('CERTIFICADO_INVALIDO', undefined, 'Titular do certificado com caractere não permitido (U+0000 ou surrogate UTF-16 isolado).');
  }
  if (cert.keyBits > MAX_RSA_KEY_BITS) {
    throw new DomainError('CERTIFICADO_INVALIDO', { bitsChave: cert.keyBits, bitsMaximos: MAX_RSA_KEY_BITS }, `Chave RSA de ${cert.keyBits} bits: o A1 ICP-Brasil usa chave de 2048 ou 4096 bits.`);
  }
  if (new Date(cert.notAfter).getTime() <= now.getTime()) {
    throw new DomainError('CERTIFICADO_EXPIRADO', { notAfter: cert.notAfter }, `Certificado expirado em ${cert.notAfter}.`);
  }
  if (new Date(cert.notBefore).getTime() > now.getTime()) {
    throw new DomainError('CERTIFICADO_AINDA_NAO_VALIDO', { notBefore: cert.notBefore }, `Certificado válido somente a partir de ${cert.notBefore}.`);
  }
  if (!cert.cnpj) {
    throw new DomainError('CERTIFICADO_CNPJ_DIVERGENTE', { cnpjEmissor: issuerCnpj }, 'Certificado não identifica um CNPJ (e-CNPJ ICP-Brasil esperado).');
  }
  if (cert.cnpj !== issuerCnpj) {
    throw new DomainError('CERTIFICADO_CNPJ_DIVERGENTE', { cnpjCertificado: cert.cnpj, cnpjEmissor: issuerCnpj });
  }
  return cert;
}

export function summaryOf(c: ParsedCertificate): CertificateSummary {
  return { subject: c.subject, serial: c.serial, notBefore: c.notBefore, notAfter: c.notAfter, cnpj: c.cnpj };
}

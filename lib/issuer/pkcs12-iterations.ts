import forge from 'node-forge';
import { DomainError } from '../errors/index.js';

/**
 * The largest MAC or PBE iteration count an A1 may declare (issue 23, defect 1). PKCS#12 files
 * carry their own key-derivation cost, and the derivation runs before the password can be known
 * wrong: node-forge spent 13.5 s on `-iter 1000000` and would spend over an hour on 0x7FFFFFFF.
 * ICP-Brasil A1 files use 2,048 (OpenSSL's default; Windows exports 2,000, Java 10,000); 100,000
 * leaves room for any sane tool while capping one derivation at about a second of work.
 */
export const MAX_PKCS12_ITERATIONS = 100_000;

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  pkcs8ShroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  safeContentsBag: '1.2.840.113549.1.12.10.1.6',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
} as const;
/** pkcs-12PbeIds (1.2.840.113549.1.12.1.x) and PBES1 (1.2.840.113549.1.5.1-11): params { salt, iterations }. */
const SALT_ITERATIONS_PBE = /^1\.2\.840\.113549\.1\.(12\.1\.\d+|5\.(1|3|4|6|10|11))$/;

type Asn1 = forge.asn1.Asn1;

/** An iteration count as a number; anything over 2^31 (or malformed) counts as unbounded. */
function integerOf(node: Asn1 | undefined): number {
  if (!node || node.type !== forge.asn1.Type.INTEGER || typeof node.value !== 'string') return Infinity;
  const bytes = node.value;
  if (!bytes.length || bytes.length > 5 || bytes.charCodeAt(0) & 0x80) return Infinity;
  let n = 0;
  for (let i = 0; i < bytes.length; i++) n = n * 256 + bytes.charCodeAt(i);
  return n;
}

const children = (node: Asn1 | undefined): Asn1[] => (node && Array.isArray(node.value) ? (node.value as Asn1[]) : []);

function oidOf(node: Asn1 | undefined): string | null {
  if (!node || node.type !== forge.asn1.Type.OID || typeof node.value !== 'string') return null;
  try { return forge.asn1.derToOid(node.value); } catch { return null; }
}

/** The bytes of an OCTET STRING, primitive or constructed (BER chunks). */
function octets(node: Asn1 | undefined): string | null {
  if (!node) return null;
  if (typeof node.value === 'string') return node.value;
  const parts = children(node).map(octets);
  return parts.every((p): p is string => p !== null) ? parts.join('') : null;
}

function parse(bytes: string | null): Asn1 | null {
  if (bytes === null) return null;
  try { return forge.asn1.fromDer(forge.util.createBuffer(bytes), { decodeBitStrings: false } as any); } catch { return null; }
}

/** Iterations an encryption AlgorithmIdentifier asks for; 0 when it derives nothing we know. */
function pbeIterations(alg: Asn1 | undefined): number {
  const [oidNode, params] = children(alg);
  const oid = oidOf(oidNode);
  if (!oid) return 0;
  if (oid === OID.pbes2) {
    const [kdf] = children(params);
    const [kdfOid, kdfParams] = children(kdf);
    return oidOf(kdfOid) === OID.pbkdf2 ? integerOf(children(kdfParams)[1]) : 0;
  }
  return SALT_ITERATIONS_PBE.test(oid) ? integerOf(children(params)[1]) : 0;
}

/** The content of a ContentInfo whose type is `data`: the OCTET STRING inside [0] EXPLICIT. */
function dataContent(contentInfo: Asn1): Asn1 | null {
  const [type, explicit] = children(contentInfo);
  if (oidOf(type) !== OID.data) return null;
  return parse(octets(children(explicit)[0]));
}

function bagIterations(safeContents: Asn1 | null, depth: number): number[] {
  const found: number[] = [];
  for (const bag of children(safeContents ?? undefined)) {
    const [bagId, explicit] = children(bag);
    const id = oidOf(bagId);
    const value = children(explicit)[0];
    if (id === OID.pkcs8ShroudedKeyBag) found.push(pbeIterations(children(value)[0]));
    // Nested SafeContents: bounded depth, a hostile file cannot make this walk long.
    else if (id === OID.safeContentsBag && depth < 4) found.push(...bagIterations(value ?? null, depth + 1));
  }
  return found;
}

/**
 * Every MAC and PBE iteration count visible in a PKCS#12 without decrypting anything: the MAC,
 * each encrypted SafeContents and each shrouded key bag in clear SafeContents. Counts hidden in an
 * encrypted SafeContents are only seen after a (bounded) derivation; the worker's time limit covers
 * them (services/issuer/pkcs12-pool.ts). Reading the structure costs no derivation.
 */
export function pkcs12Iterations(pfx: Buffer): number[] {
  const root = parse(pfx.toString('binary'));
  if (!root) return [];
  const [, authSafe, macData] = children(root);
  const found: number[] = [];
  if (macData) found.push(children(macData).length >= 3 ? integerOf(children(macData)[2]) : 1);
  for (const contentInfo of children(authSafe ? dataContent(authSafe) ?? undefined : undefined)) {
    const [type, explicit] = children(contentInfo);
    const oid = oidOf(type);
    if (oid === OID.data) found.push(...bagIterations(dataContent(contentInfo), 0));
    // EncryptedData { version, EncryptedContentInfo { contentType, contentEncryptionAlgorithm, … } }
    else if (oid === OID.encryptedData) found.push(pbeIterations(children(children(children(explicit)[0])[1])[1]));
  }
  return found;
}

/**
 * Refuses (422 CERTIFICADO_INVALIDO) a PKCS#12 that asks for more than MAX_PKCS12_ITERATIONS in any
 * visible derivation, before any derivation runs, so a wrong password costs no more than a right one.
 */
export function checkPkcs12Iterations(pfx: Buffer, max = MAX_PKCS12_ITERATIONS): void {
  const worst = Math.max(0, ...pkcs12Iterations(pfx));
  if (worst > max) {
    throw new DomainError('CERTIFICADO_INVALIDO', { iteracoesMaximas: max }, `PKCS#12 com contagem de iterações (MAC/PBE) acima de ${max}: gere o arquivo novamente com uma contagem usual (por exemplo, 2048).`);
  }
}

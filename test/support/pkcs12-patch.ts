import forge from 'node-forge';

/**
 * Rewrites the iteration counts of a PKCS#12 without re-deriving anything, the way a hostile
 * upload is made (issue 23: a 3.5 KB file whose MAC count was patched to 8,388,607). The MAC is
 * then wrong, which a reader only finds out after paying for the derivation.
 */
type Asn1 = forge.asn1.Asn1;

function integer(n: number): Asn1 {
  let bytes = '';
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes = String.fromCharCode(v % 256) + bytes;
  if (!bytes.length || bytes.charCodeAt(0) & 0x80) bytes = `\u0000${bytes}`;
  return forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.INTEGER, false, bytes);
}

const kids = (n: Asn1): Asn1[] => n.value as Asn1[];
const der = (n: Asn1): string => forge.asn1.toDer(n).getBytes();
const parse = (bytes: string): Asn1 => forge.asn1.fromDer(forge.util.createBuffer(bytes));

/** The MAC's iteration count (MacData.iterations). */
export function withMacIterations(pfx: Buffer, count: number): Buffer {
  const root = parse(pfx.toString('binary'));
  kids(kids(root)[2]!)[2] = integer(count);
  return Buffer.from(der(root), 'binary');
}

/** The iteration count of every shrouded key bag in clear SafeContents (PKCS#12 PBE params). */
export function withKeyBagIterations(pfx: Buffer, count: number): Buffer {
  const root = parse(pfx.toString('binary'));
  const authSafeOctets = kids(kids(kids(root)[1]!)[1]!)[0]!;
  const authSafe = parse(authSafeOctets.value as string);
  let patched = 0;
  for (const contentInfo of kids(authSafe)) {
    if (forge.asn1.derToOid(kids(contentInfo)[0]!.value as string) !== forge.pki.oids.data) continue;
    const octets = kids(kids(contentInfo)[1]!)[0]!;
    const safeContents = parse(octets.value as string);
    for (const bag of kids(safeContents)) {
      if (forge.asn1.derToOid(kids(bag)[0]!.value as string) !== forge.pki.oids.pkcs8ShroudedKeyBag) continue;
      const params = kids(kids(kids(kids(bag)[1]!)[0]!)[0]!)[1]!;
      kids(params)[1] = integer(count);
      patched++;
    }
    octets.value = der(safeContents);
  }
  if (!patched) throw new Error('no shrouded key bag in clear SafeContents');
  authSafeOctets.value = der(authSafe);
  return Buffer.from(der(root), 'binary');
}

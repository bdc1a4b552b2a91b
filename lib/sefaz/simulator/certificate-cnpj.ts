import forge from 'node-forge';

/**
 * CNPJ of an e-CNPJ certificate: the ICP-Brasil otherName 2.16.76.1.3.3 in subjectAltName
 * (DOC-ICP-04 §7.1.3), or else the ":<14 digits>" suffix of the CN that ICP-Brasil A1 certificates carry.
 */
const CNPJ_OID = '2.16.76.1.3.3';

export function certificateCnpj(der: Uint8Array | string): string | null {
  let cert: forge.pki.Certificate;
  try {
    cert = typeof der === 'string'
      ? forge.pki.certificateFromPem(der)
      : forge.pki.certificateFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary'))));
  } catch {
    return null;
  }
  const san = cert.getExtension('subjectAltName') as { value?: string } | null;
  if (san?.value) {
    try {
      const seq = forge.asn1.fromDer(san.value);
      for (const gn of seq.value as forge.asn1.Asn1[]) {
        // otherName [0] { type-id OID, [0] value }
        if (gn.tagClass !== forge.asn1.Class.CONTEXT_SPECIFIC || gn.type !== 0) continue;
        const parts = gn.value as forge.asn1.Asn1[];
        if (forge.asn1.derToOid(parts[0]!.value as string) !== CNPJ_OID) continue;
        const inner = (parts[1]!.value as forge.asn1.Asn1[])[0]!;
        const value = String(inner.value).replace(/\D/g, '');
        if (value.length === 14) return value;
      }
    } catch { /* fall back to the CN */ }
  }
  const cn = cert.subject.getField('CN')?.value as string | undefined;
  const m = cn ? /:(\d{14})$/.exec(cn) : null;
  return m ? m[1]! : null;
}

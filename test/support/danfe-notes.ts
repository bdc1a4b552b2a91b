import { buildSignedNfe, type SignedNfe } from '../../lib/nfe/document.js';
import { createSigner } from '../../lib/sign/signer.js';
import { assembleNfeProc } from '../../lib/emission/nfe-proc.js';
import type { CheckedNote } from '../../lib/nfe/types.js';
import { aContext, aNfe, anItem, COMPACT_TAXES, testSigningMaterial, totalsOf } from './checked-note-factories.js';

/**
 * Notes for the DANFE tests, built by our own pipeline (build, sign, XSD) from the checked-note
 * factories: the signed NFe as stored for a contingency NFC-e, or the nfeProc with an authority
 * protocol (as the simulator writes it) for an authorized one.
 */
let signer: ReturnType<typeof createSigner> | undefined;

export function signedNote(note: CheckedNote, over: Parameters<typeof aContext>[1] = {}): SignedNfe {
  signer ??= createSigner(testSigningMaterial());
  return buildSignedNfe(note, totalsOf(note), aContext(note, over), signer);
}

export const PROTOCOL = '135260000012345';
export const RECEIVED_AT = '2026-11-22T17:40:05-03:00';

export function authorizedProc(signed: SignedNfe, tpAmb: 1 | 2 = 2): string {
  const prot = `<protNFe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><verAplic>SIMULADOR</verAplic><chNFe>${signed.accessKey}</chNFe>`
    + `<dhRecbto>${RECEIVED_AT}</dhRecbto><nProt>${PROTOCOL}</nProt><digVal>${signed.digestValue}</digVal><cStat>100</cStat>`
    + '<xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>';
  return assembleNfeProc(signed.xml, prot);
}

/** The text a PDF shows, read from uncompressed content streams (pdfkit writes WinAnsi hex strings in TJ arrays). */
export function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  for (const m of pdf.toString('latin1').matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    out.push([...m[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''));
  }
  return out.join('\n');
}

export const pdfPages = (pdf: Buffer): number => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

/** An authorized NF-e with `count` items whose codes are unique (C0001…), for pagination tests. */
export function manyItemsProc(count: number): string {
  // Compact taxes keep 990 items under the authority's 500 KB (lib/sefaz/message-limit.ts).
  const items = Array.from({ length: count }, (_, i) => anItem({ ...COMPACT_TAXES, codigo: `C${String(i + 1).padStart(4, '0')}`, descricao: i % 7 === 0 ? `Produto de teste numero ${i + 1} com uma descricao longa que ocupa mais de uma linha na coluna de descricao do DANFE` : `Produto ${i + 1}` }));
  return authorizedProc(signedNote(aNfe(items)));
}

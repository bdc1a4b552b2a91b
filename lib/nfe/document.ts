import type { CheckedNote, NoteTotals } from './types.js';
import type { EmissionContext } from './xml/context.js';
import { assembleNfe, buildNfe } from './xml/nfe.js';
import { assertNfeSchema } from './xml/validate.js';
import { el, leaf } from '../xml/writer.js';
import { buildNfceQrCode, type NfceQrCode } from '../nfce/qrcode.js';
import type { Signer } from '../sign/signer.js';

export interface SignedNfe {
  /** The complete <NFe> document, signed and schema-valid (no XML declaration). */
  xml: string;
  accessKey: string;
  /** Base64 SHA-1 of the canonical infNFe (matches protNFe/digVal of the authorization). */
  digestValue: string;
  /** NFC-e only. */
  qrCode?: NfceQrCode;
}

/**
 * Called as each step of buildSignedNfe ends: 'build' (infNFe), 'sign' (signature, QR code,
 * assembly), 'xsd' (schema check passed). For timing by the caller; lib reads no clock.
 */
export type BuildStep = 'build' | 'sign' | 'xsd';
export type BuildStepHook = (step: BuildStep) => void;

/**
 * The one entry point from a checked, totalled note to the document to transmit: build infNFe
 * canonically, sign it, add infNFeSupl (QR Code and urlChave) after signing for NFC-e (it is
 * outside the signed element, and the offline QR needs the digest), and check the whole NFe
 * against the official XSD. Throws DomainError XML_FORA_DO_ESQUEMA, QRCODE_FORA_DO_PADRAO,
 * CSC_AUSENTE or UF_SEM_URL_NFCE; nothing it refuses is ever transmitted.
 */
export function buildSignedNfe(note: CheckedNote, totals: NoteTotals, ctx: EmissionContext, signer: Signer, onStep?: BuildStepHook): SignedNfe {
  const infNFe = buildNfe(note, totals, ctx);
  onStep?.('build');
  const { signatureXml, digestValue } = signer.sign(infNFe.canonical, infNFe.id);
  let qrCode: NfceQrCode | undefined;
  if (note.model === '65') {
    qrCode = buildNfceQrCode({
      accessKey: ctx.accessKey, uf: ctx.issuer.endereco.uf, tpAmb: ctx.tpAmb, tpEmis: ctx.tpEmis,
      csc: ctx.issuer.csc, cscId: ctx.issuer.cscId,
      offline: { dhEmi: ctx.dhEmi, vNF: totals.vNF, digestValue },
    });
  }
  const supl = qrCode && el('infNFeSupl', [leaf('qrCode', qrCode.qrCode), leaf('urlChave', qrCode.urlChave)]);
  const xml = assembleNfe(infNFe, supl, signatureXml);
  onStep?.('sign');
  assertNfeSchema(xml);
  onStep?.('xsd');
  return { xml, accessKey: ctx.accessKey, digestValue, ...(qrCode ? { qrCode } : {}) };
}

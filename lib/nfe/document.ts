import type { CheckedNote, NoteTotals } from './types.js';
import type { EmissionContext } from './xml/context.js';
import { assembleNfe, buildNfe, type InfNFeXml } from './xml/nfe.js';
import { assertNfeSchema } from './xml/validate.js';
import { el, leaf } from '../xml/writer.js';
import { buildNfceQrCode, type NfceQrCode } from '../nfce/qrcode.js';
import type { SignatureResult, Signer } from '../sign/signer.js';
import { renumberInfNFe } from './xml/renumber.js';
import { DomainError } from '../errors/index.js';
import { enviNfeBytes, MAX_MESSAGE_BYTES } from '../sefaz/message-limit.js';

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
 * assembly), 'xsd' (schema check passed); 'draft' (the build and the XSD check together, where a
 * pipeline runs them elsewhere: a worker thread). For timing by the caller; lib reads no clock.
 */
export type BuildStep = 'build' | 'sign' | 'xsd' | 'draft';
export type BuildStepHook = (step: BuildStep) => void;

/**
 * The one entry point from a checked, totalled note to the document to transmit: build infNFe
 * canonically, sign it, add infNFeSupl (QR Code and urlChave) after signing for NFC-e (it is
 * outside the signed element, and the offline QR needs the digest), and check the whole NFe
 * against the official XSD. Throws DomainError DOCUMENTO_EXCEDE_TAMANHO_MAXIMO, XML_FORA_DO_ESQUEMA,
 * QRCODE_FORA_DO_PADRAO, CSC_AUSENTE or UF_SEM_URL_NFCE; nothing it refuses is ever transmitted.
 */
export function buildSignedNfe(note: CheckedNote, totals: NoteTotals, ctx: EmissionContext, signer: Signer, onStep?: BuildStepHook): SignedNfe {
  const infNFe = buildNfe(note, totals, ctx);
  onStep?.('build');
  const signed = assemble(note, totals, ctx, infNFe, signer.sign(infNFe.canonical, infNFe.id));
  onStep?.('sign');
  assertWithinMessageLimit(signed.xml);
  assertNfeSchema(signed.xml);
  onStep?.('xsd');
  return signed;
}

/**
 * buildSignedNfe in two halves, so that the numbering lock spans neither the build nor the XSD
 * (issue 18: at 990 items they are ~45 ms of a series' serial time). `draftNfe` builds the note
 * with a provisional identity (number, cNF, key) and checks the whole NFe against the XSD, with a
 * Signature and a QR code of the real ones' shape: everything the build can refuse is refused
 * here, before a number is taken. `finishNfe`, once the number is claimed, writes the final
 * identity into the draft and signs it. Only digits of fixed patterns change (nNF, cNF, cDV, the
 * key in Id, the base64 values), so the finished NFe is as schema-valid as the draft, and it is
 * byte for byte what buildSignedNfe writes for the final context (tested).
 */
export interface NfeDraft {
  readonly note: CheckedNote;
  readonly totals: NoteTotals;
  /** The provisional context the draft was built with. */
  readonly ctx: EmissionContext;
  readonly infNFe: InfNFeXml;
}

export function draftNfe(note: CheckedNote, totals: NoteTotals, ctx: EmissionContext, signer: Signer, onStep?: BuildStepHook): NfeDraft {
  const infNFe = buildNfe(note, totals, ctx);
  onStep?.('build');
  const shaped = assemble(note, totals, ctx, infNFe, signer.shape(infNFe.canonical, infNFe.id)).xml;
  assertWithinMessageLimit(shaped);
  assertNfeSchema(shaped);
  onStep?.('xsd');
  return { note, totals, ctx, infNFe };
}

/**
 * The draft under its final identity `ctx` (same issuer, model, series, tpEmis and dhEmi), signed
 * off the caller's thread (Signer.signAsync).
 */
export async function finishNfe(draft: NfeDraft, ctx: EmissionContext, signer: Signer, onStep?: BuildStepHook): Promise<SignedNfe> {
  const infNFe = renumberInfNFe(draft.infNFe, draft.ctx, ctx);
  const signed = assemble(draft.note, draft.totals, ctx, infNFe, await signer.signAsync(infNFe.canonical, infNFe.id));
  onStep?.('sign');
  return signed;
}

/**
 * The authority refuses an enviNFe over 500 KB with cStat 214 (lib/sefaz/message-limit.ts): the
 * note would end REJECTED with its number used. Refused here instead, before the XSD (a 1 MB note
 * costs it ~30 ms) and, for a draft, before a number is taken. A draft carries the provisional
 * number of nine digits, the most nNF has, and a signature of the real one's length, so a draft
 * that fits is a finished note that fits (one with a shorter number may be refused up to 8 bytes
 * early).
 */
function assertWithinMessageLimit(xml: string): void {
  const bytes = enviNfeBytes(xml);
  if (bytes > MAX_MESSAGE_BYTES) throw new DomainError('DOCUMENTO_EXCEDE_TAMANHO_MAXIMO', { tamanhoBytes: bytes, limiteBytes: MAX_MESSAGE_BYTES });
}

/**
 * The NFe around a signed infNFe: infNFeSupl (QR Code and urlChave) after signing for NFC-e (it is
 * outside the signed element, and the offline QR needs the digest), then the Signature.
 */
function assemble(note: CheckedNote, totals: NoteTotals, ctx: EmissionContext, infNFe: InfNFeXml, { signatureXml, digestValue }: SignatureResult): SignedNfe {
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
  return { xml, accessKey: ctx.accessKey, digestValue, ...(qrCode ? { qrCode } : {}) };
}

import type { BuildContext, BuiltDocument, DocumentPipeline, DraftDocument } from '../../lib/emission/pipeline.js';
import type { InfNFeXml } from '../../lib/nfe/xml/nfe.js';
import { toEmissionContext } from '../../lib/emission/build-context.js';
import type { ResponsibleTechnician } from '../../lib/nfe/xml/context.js';
import type { CheckedNote, NfceBody, NfeBody, NoteTotals } from '../../lib/nfe/types.js';
import { validateNfceBody, validateNfeBody } from '../../lib/nfe/validate.js';
import { checkNfce, checkNfe } from '../../lib/nfe/check.js';
import { checkNotSelfReference } from '../../lib/nfe/rules/referenciadas.js';
import { computeTotals } from '../../lib/nfe/totals.js';
import { applyApproximateTax } from '../../lib/nfe/approximate-tax.js';
import { buildSignedNfe, draftNfe, finishNfe, type SignedNfe } from '../../lib/nfe/document.js';
import { createSigner } from '../../lib/sign/signer.js';
import { API_VERSION } from '../../lib/version.js';

/**
 * The document pipeline of the emission service: the pure lib/ functions behind the
 * DocumentPipeline port. Tests of the service's own state machine may bind a stand-in with
 * `bindPipeline`; everything else runs this one.
 */

/** infRespTec: the platform as the software's responsible technician (NT 2018.005). */
export const PLATFORM_RESP_TEC: ResponsibleTechnician = {
  cnpj: '11222333000181',
  contato: 'Suporte Fiscal API',
  email: 'suporte@fiscal-api.example',
  fone: '1130000000',
};

const VER_PROC = `fiscal-api ${API_VERSION}`;

export const realPipeline: DocumentPipeline = {
  validate: (model, body) => (model === '55' ? validateNfeBody(body) : validateNfceBody(body)),
  check: (model, body, issuer) => (model === '55' ? checkNfe(body as NfeBody, issuer) : checkNfce(body as NfceBody, issuer)),
  approximateTax: applyApproximateTax,
  totals: (note) => computeTotals(note),
  build(note, totals, ctx, material, onStep) {
    const emission = toEmissionContext(ctx, PLATFORM_RESP_TEC, VER_PROC);
    // API.md rule 7: a note may not reference itself; its key exists only now.
    checkNotSelfReference(note.referenciadas, emission.accessKey);
    return builtOf(buildSignedNfe(note, totals, emission, createSigner(material), onStep));
  },
  draft(note, totals, ctx, material, onStep) {
    const nfe = draftNfe(note, totals, toEmissionContext(ctx, PLATFORM_RESP_TEC, VER_PROC), createSigner(material), onStep);
    return { note, totals, ctx, nfe };
  },
  async finish(draft, number, cnf, material, onStep) {
    const ctx = { ...draft.ctx, number, cnf };
    if (!draft.nfe) return realPipeline.build(draft.note, draft.totals, ctx, material, onStep);
    const emission = toEmissionContext(ctx, PLATFORM_RESP_TEC, VER_PROC);
    checkNotSelfReference(draft.note.referenciadas, emission.accessKey);
    return builtOf(await finishNfe(draft.nfe, emission, createSigner(material), onStep));
  },
};

/** What `draft` answers for `note` when its infNFe was built and its NFe checked in a thread (draft-pool.ts). */
export function draftFromInfNFe(note: CheckedNote, totals: NoteTotals, ctx: BuildContext, infNFe: InfNFeXml): DraftDocument {
  return { note, totals, ctx, nfe: { note, totals, ctx: toEmissionContext(ctx, PLATFORM_RESP_TEC, VER_PROC), infNFe } };
}

function builtOf(signed: SignedNfe): BuiltDocument {
  return { xml: signed.xml, accessKey: signed.accessKey, digestValue: signed.digestValue, ...(signed.qrCode ? { qrCode: signed.qrCode.qrCode } : {}) };
}

let bound: DocumentPipeline = realPipeline;

export function documentPipeline(): DocumentPipeline {
  return bound;
}

/** Replaces the pipeline of this process (tests of the state machine only). */
export function bindPipeline(pipeline: DocumentPipeline): void {
  bound = pipeline;
}

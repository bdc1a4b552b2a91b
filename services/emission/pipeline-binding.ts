import { DomainError } from '../../lib/errors/index.js';
import type { DocumentPipeline } from '../../lib/emission/pipeline.js';

/**
 * Where the emission service gets its document pipeline. The lead wires the real lib functions
 * here, e.g.:
 *
 *   import { validateNfe, validateNfce } from '../../lib/nfe/validate.js';
 *   import { checkNfe, checkNfce } from '../../lib/nfe/check.js';
 *   import { computeTotals } from '../../lib/nfe/totals.js';
 *   import { buildSignedNfe } from '../../lib/nfe/document.js';
 *   import { createSigner } from '../../lib/sign/signer.js';
 *   const real: DocumentPipeline = {
 *     validate: (model, body) => (model === '55' ? validateNfe(body) : validateNfce(body)),
 *     check: (model, body, issuer) => (model === '55' ? checkNfe(body as NfeBody, issuer) : checkNfce(body as NfceBody, issuer)),
 *     totals: (note) => computeTotals(note),
 *     build: (note, totals, ctx, material) => buildSignedNfe(note, totals, ctx, createSigner(material)),
 *   };
 *   let bound: DocumentPipeline = real;
 *
 * Until then every emission answers 503 (no document is numbered or stored), never a fake note.
 * Tests bind their own pipeline with `bindPipeline` before starting nodes.
 */
const unwired = (): never => {
  throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Emissão indisponível: pipeline de documentos não configurado.');
};

const UNWIRED: DocumentPipeline = { validate: unwired, check: unwired, totals: unwired, build: unwired };

let bound: DocumentPipeline = UNWIRED;

export function documentPipeline(): DocumentPipeline {
  return bound;
}

/** Replaces the pipeline of this process (tests). */
export function bindPipeline(pipeline: DocumentPipeline): void {
  bound = pipeline;
}

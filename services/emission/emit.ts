import { randomInt } from 'node:crypto';
import { DomainError } from '../../lib/errors/index.js';
import { chooseCnf } from '../../lib/nfe/access-key.js';
import type { Model } from '../../lib/nfe/types.js';
import type { BuildContext } from '../../lib/emission/pipeline.js';
import { resolveSeries } from '../../lib/emission/series.js';
import { resendEligibility } from '../../lib/emission/resend.js';
import { transmissionInFlightError } from '../../lib/emission/transmission.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import type { ResendContent } from './store.js';
import type { NewDocument } from './document-row.js';
import type { EmissionDeps } from './deps.js';
import { approximateRates, issuerWithPreflight, signingMaterial } from './ports.js';
import { transmitAttempt } from './transmit.js';
import { CONTINGENCY_TP_EMIS, contingencyAllowed, contingencyInfo, entryAtEmission, needsMonitor } from '../../lib/emission/contingency.js';
import { DEFAULT_JUSTIFICATIVA_CONTINGENCIA } from '../../lib/nfe/rules/nfce.js';
import { monitorView, settleOnlineFailure } from './contingency.js';
import { now as clockMs, type StageTimer } from './stage-timer.js';
import type { BuildStep } from '../../lib/nfe/document.js';
import { brasiliaDay } from '../../lib/emission/build-context.js';
import { bodyFingerprint } from '../../lib/idempotency/fingerprint.js';
import { validateBeforeSelection } from '../../lib/emission/before-selection.js';
import { respond, type EmissionAnswer } from './answer.js';
import { continueBound, guarded, keyBinding } from './idempotent-retry.js';
import { assistedTaxation, chainAfterInsert } from './assisted-taxation.js';
import { numberingGroup, type PendingNote } from './numbering-group.js';
import { inFlightPlace, numberInSlot, slotRefused } from './numbering-slots.js';

export interface EmissionRequest {
  partnerId: string;
  keyKind: 'live' | 'test' | null;
  model: Model;
  body: unknown;
  idempotencyKey: string | null;
  /** No earlier request used the key (services/shared/caller.ts idempotencyFirstUse). */
  keyFirstUse?: boolean;
}


const random = () => randomInt(0, 100_000_000) / 100_000_000;
/** The number a draft is built with before the real one is claimed: nine digits, the longest nNF. */
const PROVISIONAL_NUMBER = 999_999_999;

/**
 * One note, in the order of issue 7: unknown fields or a malformed issuerId (400) → resolve issuer →
 * the rest of strict validation (400) → rules (422) → preflight (422) → number → build/XSD/sign →
 * CREATED → TRANSMITTING (committed) → authority → outcome. Every refusal before numbering leaves
 * the sequence untouched. The body is validated once, before the selection; which of its refusals
 * answer before the selection is lib/emission/before-selection.ts.
 *
 * v1.issuer.forEmission resolves the issuer and reports its preflight in one call (mode 'report').
 * Its selection errors (400 several issuers / 404 other partner's / 403 test key on production)
 * stop here; the preflight refusal (422: certificate, issuer record, CSC) is thrown only after
 * strict validation (400) and the business rules (422) passed, and before numbering. So a body
 * that breaks a rule answers that rule even when the issuer also lacks its certificate.
 */
export async function emitDocument(deps: EmissionDeps, req: EmissionRequest): Promise<EmissionAnswer> {
  const { pipeline, stages } = deps;
  // The key names at most one document (issue 20): a retry answers it, before anything is looked at again.
  const key = req.idempotencyKey;
  const fingerprint = key ? bodyFingerprint(req.body) : null;
  // A numbering refused because another request bound the key first answers that request's document.
  const { answerBound, boundMeanwhile } = keyBinding(key, (k) => deps.store.findByIdempotencyKey(req.partnerId, req.model, k),
    (found, k) => guarded(deps.reportFault, () => found.doc, () => continueBound(deps, found, k, fingerprint!)), req.keyFirstUse);
  const answered = await answerBound();
  if (answered) return answered;
  const started = stages ? clockMs() : 0;
  let mark = started;
  /** Records the time since the previous lap under `stage`. */
  const lap = stages ? (stage: Parameters<StageTimer['record']>[0]) => { const t = clockMs(); stages.record(stage, t - mark); mark = t; } : () => {};
  const sent = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const issuerId = typeof sent.issuerId === 'string' && sent.issuerId ? sent.issuerId : undefined;

  // The body's unknown keys and a malformed issuerId answer before the issuer is selected; its
  // other violations after the selection (lib/emission/before-selection.ts).
  const validated = await validateBeforeSelection(() => pipeline.validate(req.model, req.body), req.body);
  lap('validate');
  const { issuer, preflight, certificateFingerprint } = await issuerWithPreflight(deps.calls, { partnerId: req.partnerId, issuerId, model: req.model, keyKind: req.keyKind });
  lap('issuer');
  const body = validated();
  // The rules read the issuer's regime (crt): without it they cannot be judged, so that refusal goes first.
  if (preflight && lacksRegime(preflight)) throw preflight;
  // resolverTributacao: classes and CSOSN filled in before the rules (services/emission/assisted-taxation.ts).
  const taxation = await assistedTaxation(deps.calls, { partnerId: req.partnerId, model: req.model, rawBody: req.body }, issuer, body, deps.now());
  const checked = await pipeline.check(req.model, taxation?.body ?? body, issuer);
  const series = resolveSeries(body.serie, issuer, req.model);
  if (preflight) throw preflight;
  const emittedAt = deps.now();
  // NFC-e offline contingency (lib/emission/contingency.ts): asked for, or the UF confirmed down.
  const requested = checked.contingencia?.requested;
  const justificativa = checked.contingencia?.justificativa ?? DEFAULT_JUSTIFICATIVA_CONTINGENCIA;
  const allowed = !!deps.contingency && contingencyAllowed(req.model, requested);
  const monitor = allowed && needsMonitor(req.model, requested) ? await monitorView(deps.calls, issuer.endereco.uf, issuer.ambienteFiscal) : null;
  const entryReason = allowed ? entryAtEmission(req.model, requested, monitor) : null;
  const entry = entryReason ? contingencyInfo(entryReason, justificativa, emittedAt) : null;
  const enter = chainAfterInsert(entry ? (trx, created) => deps.contingency!.enter(trx, created, entry, 'emission:contingency') : undefined, taxation?.afterInsert);
  /** The Lei 12.741 approximate tax for dhEmi's day, when the issuer enables it (a 422 here is still before numbering). */
  const withApproximateTax = async (at: Date) => {
    if (!issuer.valorAproximadoTributosEnabled) return checked;
    const day = brasiliaDay(at);
    const rates = await approximateRates(deps.calls, issuer.endereco.uf, day, checked.items.map((i) => i.ncm));
    return pipeline.approximateTax(checked, rates, issuer.endereco.uf, day);
  };
  let note = checked;
  let totals = pipeline.totals(note);
  lap('rules+totals');
  if (issuer.valorAproximadoTributosEnabled) {
    note = await withApproximateTax(emittedAt);
    totals = pipeline.totals(note);
    lap('approximate-tax');
  }
  const material = await signingMaterial(deps.calls, issuer.id, certificateFingerprint);
  lap('material');
  // build/sign/xsd laps come from the pipeline's step hook; their sum is kept out of 'persist'.
  let buildMs = 0;
  const onStep = stages ? (step: BuildStep) => { const t = clockMs(); stages.record(step, t - mark); buildMs += t - mark; mark = t; } : undefined;

  const space = { issuerId: issuer.id, cnpj: issuer.cnpj, model: req.model, series, environment: issuer.ambienteFiscal };
  const base: Omit<NewDocument, 'cnf'> = {
    ...space, uf: issuer.endereco.uf, partnerId: req.partnerId, keyKind: req.keyKind ?? 'jwt', amountCents: totals.vNF, requestBody: req.body,
    idempotencyKey: key, idempotencyFingerprint: fingerprint, tpEmis: entry ? CONTINGENCY_TP_EMIS : 1, emittedAt,
    tributacaoResolvida: taxation?.tributacaoResolvida ?? null,
  };
  // dhCont is dhEmi: the note is issued in contingency from its emission on.
  const ctxFor = (number: number, cnf: string, at: Date, tpEmis: number): BuildContext => ({
    issuer, model: req.model, series, number, cnf, tpEmis, emittedAt: at, ambiente: issuer.ambienteFiscal,
    ...(tpEmis === CONTINGENCY_TP_EMIS ? { contingency: { startedAt: at, justificativa } } : {}),
  });

  // Waits for one of the issuer's numbering slots; refused (503, before any number) only when truly overloaded.
  const numbered = <T>(work: () => Promise<T>): Promise<T> => (deps.numbering ? deps.numbering.run(issuer.id, work, slotRefused(issuer.id)) : work());
  // The same slots; a new note that waited for one is numbered with the notes of its series that waited with it.
  const numberedWithSeries = (note: PendingNote): Promise<DocumentRecord> => numberInSlot(deps.numbering, issuer.id, numberingGroup(note.doc), note,
    (notes) => deps.store.createNumberedGroup(notes));
  // From before its number is taken until the authority answered, the note holds one of its issuer's
  // in-flight places (numbering-slots.ts): an overload waits, or is refused, before numbering.
  return inFlightPlace(deps.inFlight, issuer.id, async () => {
    let doc: DocumentRecord;
    let resend: ResendContent | undefined;
    /** The signed XML stored with a new document: kept to transmit, not read back. */
    let storedXml: string | undefined;
    /** The numbering transaction also started the first transmission (no markTransmitting of its own). */
    let fused = false;
    if (body.numero !== undefined) {
      const existing = await deps.store.findByNumber(space, body.numero);
      if (existing) {
        const decision = resendEligibility(existing, deps.now());
        if (decision.kind === 'refuse') throw new DomainError(decision.code, { numero: body.numero, serie: series });
        // Checked again under the row lock by markTransmitting; refusing here saves the rebuild.
        if (decision.kind === 'in-flight') throw transmissionInFlightError(existing);
        // Same key: rebuilt from the stored cNF, tpEmis and dhEmi; what is sent now is transmitted.
        // The approximate tax follows dhEmi too: the rates in force on the stored day.
        if (issuer.valorAproximadoTributosEnabled && brasiliaDay(existing.emittedAt) !== brasiliaDay(emittedAt)) {
          note = await withApproximateTax(existing.emittedAt);
          totals = pipeline.totals(note);
        }
        mark = clockMs();
        const built = await pipeline.build(note, totals, ctxFor(existing.number, existing.cnf!, existing.emittedAt, existing.tpEmis), material, onStep);
        if (built.accessKey !== existing.accessKey) throw new Error(`resend produced key ${built.accessKey}, stored ${existing.accessKey}`);
        doc = existing;
        resend = { xml: built.xml, digestValue: built.digestValue, ...(built.qrCode ? { qrCode: built.qrCode } : {}), requestBody: req.body, amountCents: totals.vNF, accessKey: built.accessKey, tributacaoResolvida: taxation?.tributacaoResolvida ?? null };
      } else {
        const cnf = chooseCnf(body.numero, random);
        mark = clockMs();
        const built = await pipeline.build(note, totals, ctxFor(body.numero, cnf, emittedAt, base.tpEmis), material, onStep);
        try {
          doc = await numbered(() => deps.store.createWithNumber({ ...base, cnf }, body.numero!, built, enter));
          storedXml = built.xml;
        } catch (err) {
          return boundMeanwhile(err);
        }
      }
    } else {
      // Built and checked against the XSD before a number is taken (every refusal of the build is
      // here, and the series' lock spans neither: lib/nfe/document.ts draftNfe); under the lock the
      // draft only gets its number and signature.
      mark = clockMs();
      const draft = await pipeline.draft(note, totals, ctxFor(PROVISIONAL_NUMBER, chooseCnf(PROVISIONAL_NUMBER, random), emittedAt, base.tpEmis), material, onStep);
      const txStart = mark;
      buildMs = 0; // only the signing inside the transaction is kept out of 'persist' below
      const finish = async (number: number) => {
        if (stages) { const t = clockMs(); stages.record('lock', t - txStart); mark = t; }
        const cnf = chooseCnf(number, random);
        const built = await pipeline.finish(draft, number, cnf, material, onStep);
        storedXml = built.xml; // a retried transaction rebuilds: the last build is the one stored
        return { cnf, built };
      };
      try {
        if (enter) doc = await numbered(() => deps.store.createNumbered(base, finish, enter));
        // With nothing else to write after the insert, it commits TRANSMITTING already (store.ts
        // insertCreated), numbered with the series' notes that waited for a slot with it.
        else doc = await numberedWithSeries({ doc: base, build: finish });
        fused = !enter;
      } catch (err) {
        return boundMeanwhile(err);
      }
      if (stages) mark = txStart + buildMs; // the rest of the numbering transaction counts as 'persist'
    }

    let known = doc;
    return guarded(deps.reportFault, () => known, async () => {
      // Issued in contingency: signed, not transmitted now (the contingency scheduler does it).
      if (doc.status === 'CONTINGENCIA_PENDENTE') {
        stages?.record('total', clockMs() - started);
        return respond(doc);
      }

      // Exactly one request (or reconciliation) wins the transmission of a document; the loser answers
      // 409 and sends nothing (lib/emission/transmission.ts).
      const claim = fused ? { kind: 'started' as const, doc } : await deps.store.markTransmitting(doc.id, resend ? 'resend' : 'emission', resend ? { replace: resend } : {});
      if (claim.kind === 'in-flight') throw transmissionInFlightError(claim.doc);
      if (claim.kind !== 'started') throw new DomainError('NUMERO_JA_UTILIZADO', { numero: doc.number, serie: series });
      const transmitting = known = claim.doc;
      const xml = resend?.xml ?? storedXml!;
      lap('persist');
      const { doc: sentDoc, result } = await transmitAttempt(deps, transmitting, xml);
      let final = known = sentDoc;
      // A new NFC-e whose transmission failed by infrastructure: settled by key, maybe re-keyed in contingency.
      if (allowed && !resend) {
        const sent = final;
        final = await settleOnlineFailure(deps, final, result, justificativa, async () => {
          const cnf = chooseCnf(sent.number, random);
          return { cnf, built: await pipeline.build(note, totals, ctxFor(sent.number, cnf, sent.emittedAt, CONTINGENCY_TP_EMIS), material) };
        });
      }
      stages?.record('total', clockMs() - started);
      return respond(final);
    });
  });
}

function lacksRegime(err: DomainError): boolean {
  const missing = err.data?.camposFaltando;
  return err.type === 'CADASTRO_EMISSOR_INCOMPLETO' && Array.isArray(missing) && missing.includes('crt');
}

import type { NfseRecord } from '../../../lib/emission/nfse/document.js';
import { SEFIN_DPS_DUPLICADA, isDuplicateDps, nfseTransition, type NfseTransition } from '../../../lib/emission/nfse/state.js';
import { SEFIN_MUNICIPIO_NAO_ADERENTE } from '../../../lib/nfse/rules/municipio.js';
import type { DpsConsultResult, NfseSubmitResult, SefinTarget } from '../../../lib/sefin/results.js';
import type { NfseStore, SefinDetails } from './store.js';
import { consultDps, submitDps } from './sefin-ports.js';
import type { NfseOutcomeReporter } from '../outcome-report.js';
import type { ActionCaller } from '../action-caller.js';

export interface NfseTransmitDeps {
  nfse: NfseStore;
  calls: ActionCaller;
  /** Told of each Sefin answer stored (the outcome log line and counter); absent: nothing is reported. */
  onOutcome?: NfseOutcomeReporter;
}

/** Where a DPS goes: the sefaz service resolves the endpoint (sandbox, override) from the issuer, as for NF-e. */
export function sefinTarget(doc: Pick<NfseRecord, 'issuerId' | 'environment'>): SefinTarget {
  return { issuerId: doc.issuerId, ambiente: doc.environment };
}

/** What to store with a Sefin answer: the NFS-e and its key, or erros[] verbatim. */
function detailsOf(result: NfseSubmitResult | DpsConsultResult): SefinDetails {
  if (result.kind === 'authorized') {
    return {
      chaveAcesso: result.chaveAcesso, numeroNfse: result.numeroNfse, nfseXml: result.nfseXml, authorizedAt: new Date(result.authorizedAt),
      ...('alertas' in result ? { alertas: result.alertas.map(({ codigo, descricao }) => ({ codigo, descricao })) } : {}),
    };
  }
  if (result.kind === 'rejected') return { erros: result.erros.map(({ codigo, descricao }) => ({ codigo, descricao })) };
  return {};
}

/**
 * Sends a DPS already committed as TRANSMITTING (`doc` as the numbering or markTransmitting wrote
 * it) and stores Sefin's answer for that attempt. E0014 for our own idDps means an earlier attempt was processed:
 * the DPS is consulted and ends as Sefin holds it. An E0037 records the emitter's municipality as
 * `nao_aderente` (rule 9), so the next DPS is refused before numbering.
 */
export async function transmitNfse(deps: NfseTransmitDeps, doc: NfseRecord, signedXml: string, target: SefinTarget = sefinTarget(doc)): Promise<NfseRecord> {
  const submitted = await submitDps(deps.calls, target, signedXml, doc.idDps);
  if (isDuplicateDps(submitted)) {
    const consulted = await consultDps(deps.calls, target, doc.idDps);
    const tr: NfseTransition = consulted.kind === 'authorized'
      ? nfseTransition(doc.status, { kind: 'consult', result: consulted })
      : { to: null, motivo: `Sefin acusou DPS duplicada (${SEFIN_DPS_DUPLICADA}) e a consulta pelo idDps não a encontrou; nova consulta agendada.` };
    const stored = await deps.nfse.applyOutcome(doc.id, doc.transmissions, `duplicate-consult:${consulted.kind}`, tr, detailsOf(consulted), doc);
    deps.onOutcome?.(stored, 'consult', consulted);
    return stored;
  }
  const tr = nfseTransition(doc.status, { kind: 'submit', result: submitted });
  const stored = await deps.nfse.applyOutcome(doc.id, doc.transmissions, `submit:${submitted.kind}`, tr, detailsOf(submitted), doc);
  deps.onOutcome?.(stored, 'submission', submitted);
  await recordNonAdherence(deps, doc, submitted);
  return stored;
}

/** An authorization records the municipality as adhering with the outcome itself (NfseStore.applyOutcome); a refusal E0037 here. */
async function recordNonAdherence(deps: NfseTransmitDeps, doc: NfseRecord, result: NfseSubmitResult): Promise<void> {
  if (result.kind !== 'rejected') return;
  const e0037 = result.erros.find((e) => e.codigo === SEFIN_MUNICIPIO_NAO_ADERENTE);
  if (e0037) await deps.nfse.recordAdesao(doc.codigoMunicipio, doc.environment, 'nao_aderente', e0037.descricao);
}

/**
 * One reconciliation step for a claimed open DPS: consult by idDps; authorized ends it with the
 * normal event, not found sends the stored DPS again (same idDps) under a new attempt, a failure
 * waits for the next slot (already scheduled by the claim).
 */
export async function reconcileNfse(deps: NfseTransmitDeps, doc: NfseRecord, target: SefinTarget = sefinTarget(doc)): Promise<NfseRecord> {
  const consulted = await consultDps(deps.calls, target, doc.idDps);
  const tr = nfseTransition(doc.status, { kind: 'consult', result: consulted });
  if (tr.to === null && tr.retransmit) {
    const claim = await deps.nfse.markTransmitting(doc.id, 'retransmit', doc.transmissions);
    if (claim.kind !== 'started') return claim.doc;
    const xml = await deps.nfse.xmlOf(doc.id);
    return transmitNfse(deps, claim.doc, xml!.dps, target);
  }
  const stored = await deps.nfse.applyOutcome(doc.id, doc.transmissions, `consult:${consulted.kind}`, tr, detailsOf(consulted));
  deps.onOutcome?.(stored, 'consult', consulted);
  return stored;
}

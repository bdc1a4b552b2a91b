import { statusInWords } from '../../lib/emission/status-words.js';
import { DomainError } from '../../lib/errors/index.js';
import type { Model } from '../../lib/nfe/types.js';
import {
  cancellationView, checkCancelable, checkCorrectable, eventView, mayHaveBeenSent, registeredInConsult, rejectionError, settleEvent, unansweredError,
  type EventSettlement, type FiscalEventRecord, type FiscalEventType,
} from '../../lib/emission/fiscal-events.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import type { EmissionDeps } from './deps.js';
import type { FiscalEventStore } from './event-store.js';
import { consult, issuerWithPreflight, sendEvent } from './ports.js';
import { ownDocument } from './queries.js';
import type { Reader } from './reader.js';
import { isIdShaped } from '../../lib/validation/uuid.js';

/**
 * Cancellation and CC-e of a stored document: own document (404) → state (422) → issuer and its
 * certificate (403/404/422) → claim under the document lock (409) → authority → settle. An event
 * whose send got no answer stays PENDING and answers 503; the same request later completes it:
 * when an earlier send may have reached the authority (mayHaveBeenSent), the key is consulted first
 * and an event the authority already registered is taken from there, so nothing is sent twice.
 */
export interface EventRequest {
  partnerId: string;
  keyKind: 'live' | 'test' | null;
  model: Model;
  id: unknown;
  type: FiscalEventType;
  text: string;
}

type Deps = Pick<EmissionDeps, 'store' | 'calls'> & { events: FiscalEventStore };

export async function requestEvent(deps: Deps, req: EventRequest): Promise<{ event: FiscalEventRecord; doc: DocumentRecord }> {
  // A write: the issuer's own test-key rule judges it (requestEvent's issuer check), not the reader's.
  const found = await ownDocument(deps.store, { partnerId: req.partnerId }, req.model, req.id);
  if (req.type === 'cancelamento' && found.status === 'CANCELADA') {
    const done = await deps.events.registeredCancellation(found.id);
    if (done) return { event: done, doc: found };
  }
  // The state first (422, decided again under the lock by the claim), then the issuer: its selection
  // rules (ek_test_ on a production issuer: 403) and its A1, which signs the event.
  if (req.type === 'cancelamento') checkCancelable(found.status);
  else checkCorrectable(found.status);
  const { issuer, preflight } = await issuerWithPreflight(deps.calls, { partnerId: req.partnerId, issuerId: found.issuerId, model: req.model, keyKind: req.keyKind });
  if (preflight?.type === 'CERTIFICADO_AUSENTE') throw preflight;
  const claim = await deps.events.claim(found.id, req.type, req.text);
  if (claim.kind === 'done') return claim;
  const { event, doc } = claim;
  const target = { issuerId: doc.issuerId, uf: doc.uf, model: doc.model, ambiente: doc.environment, accessKey: doc.accessKey! };
  let settlement: EventSettlement | null = null;
  const uncertain = mayHaveBeenSent(event);
  if (uncertain) {
    const situation = await consult(deps.calls, target);
    if (situation.kind === 'failed') settlement = { kind: 'unanswered', outcome: 'unknown', detail: `consulta pela chave falhou (${situation.reason}): ${situation.detail}` };
    else settlement = registeredInConsult(situation, event.type, event.sequence);
  }
  if (!settlement) {
    const result = await sendEvent(deps.calls, {
      ...target, cnpj: issuer.cnpj, sequence: event.sequence,
      ...(event.type === 'cancelamento' ? { type: 'cancelamento' as const, protocol: doc.protocol!, justificativa: event.text } : { type: 'cce' as const, correcao: event.text }),
    });
    settlement = settleEvent(result);
    // An earlier send may have been registered while a later one fails: keep it `unknown` then.
    if (settlement.kind === 'unanswered' && uncertain) settlement = { ...settlement, outcome: 'unknown' };
  }
  const settled = await deps.events.settle(event, settlement);
  if (settlement.kind === 'rejected') throw rejectionError(event, settlement.cStat, settlement.xMotivo);
  if (settlement.kind === 'unanswered') throw unansweredError(event, settlement.outcome);
  return settled;
}

export async function cancelDocument(deps: Deps, req: Omit<EventRequest, 'type' | 'text'> & { justificativa: string }) {
  const { event, doc } = await requestEvent(deps, { ...req, type: 'cancelamento', text: req.justificativa });
  return cancellationView(event, doc);
}

export async function correctDocument(deps: Deps, req: Omit<EventRequest, 'type' | 'text' | 'model'> & { correcao: string }) {
  const { event, doc } = await requestEvent(deps, { ...req, model: '55', type: 'carta-correcao', text: req.correcao });
  return eventView(event, doc);
}

export async function listEvents(deps: Deps, reader: Reader, model: Model, id: unknown) {
  const doc = await ownDocument(deps.store, reader, model, id);
  return { items: (await deps.events.list(doc.id)).map((e) => eventView(e, doc)) };
}

/** procEventoNFe of a registered event of the caller's document. */
export async function eventXml(deps: Deps, reader: Reader, model: Model, id: unknown, eventId: unknown): Promise<{ xml: string; filename: string }> {
  const doc = await ownDocument(deps.store, reader, model, id);
  const event = isIdShaped(eventId) ? await deps.events.get(eventId) : undefined;
  if (!event || event.documentId !== doc.id) throw new DomainError('NOT_FOUND', undefined, 'Evento não encontrado.');
  const xml = event.status === 'REGISTERED' ? await deps.events.xmlOf(event.id) : null;
  if (!xml) throw new DomainError('CONFLICT', { status: event.status }, `XML indisponível para evento ${statusInWords(event.status)}: há procEventoNFe só depois do registro pela autoridade.`);
  return { xml, filename: `${doc.accessKey}-${event.type === 'cancelamento' ? '110111' : '110110'}-${String(event.sequence).padStart(2, '0')}-procEventoNFe.xml` };
}

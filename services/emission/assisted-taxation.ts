import { randomUUID } from 'node:crypto';
import { DomainError } from '../../lib/errors/index.js';
import { applyResolution, defaultCsosn, itemsToResolve, type ResolvedItemView } from '../../lib/classification/note-groups.js';
import type { ResolvedClass } from '../../lib/classification/resolve.js';
import type { GoodsModel } from '../../lib/classification/types.js';
import type { DocumentBody } from '../../lib/emission/pipeline.js';
import { brasiliaDay } from '../../lib/emission/build-context.js';
import type { IssuerSnapshot } from '../../lib/issuer/types.js';
import { planIncludesFiscalBrain, type Plan } from '../../lib/plans.js';
import { PRODUCT_CLASS_CHANNEL, PRODUCT_CLASS_EVENT, type ProductClassEvent } from '../shared/product-class-event.js';
import type { ActionCaller } from './action-caller.js';
import type { AfterInsert } from './document-row.js';

/*
 * Assisted taxation of goods on the emission side (API.md rule 9, issue 17), kept out of emit.ts:
 * under `resolverTributacao: true`, after strict validation and before the business rules (which
 * compute vBC and the values of every ibsCbs group) and numbering:
 *
 * 1. the gate: the partner's plan includes fiscalBrain and the issuer has fiscalBrainEnabled,
 *    else 403 TRIBUTACAO_ASSISTIDA_INDISPONIVEL (nothing else is looked at);
 * 2. v1.classification.resolveGoods answers each item's class and rates, or the refusal (422);
 * 3. the body gets the resolved groups (and CSOSN 102 for Simples plain sales) and the answer's
 *    `tributacaoResolvida[]`;
 * 4. the classes the items sent are recorded in the product class memory through the emission
 *    outbox, in the transaction that creates the note (AfterInsert): written exactly when the note
 *    is accepted (API.md States: accepted and validated → CREATED), never for a refused one, and
 *    the classification service applies each event once (services/shared/product-class-event.ts).
 */

/** The emission service's outbox (services/mixins/outbox.mixin.ts), relayed to the event's channel. */
const OUTBOX_TABLE = 'emission.outbox';

export interface AssistedTaxation {
  body: DocumentBody;
  tributacaoResolvida: ResolvedItemView[];
  /** Writes the product-class event in the creating transaction; absent when no class was sent. */
  afterInsert?: AfterInsert;
}

/** What v1.classification.resolveGoods answers (services/classification/goods-taxation.ts). */
interface ResolveGoodsAnswer {
  resolved: ResolvedClass[];
  sentClasses: { codigo: string; ncm: string; cClassTrib: string }[];
  versao: string;
  fonte: string;
}

/**
 * The gate of the assisted-taxation module (API.md, "What the service does" 5): a plan with
 * fiscalBrain and the issuer's fiscalBrainEnabled; NF-e, NFC-e, batch and NFS-e (rule 10) alike.
 */
export async function checkAssistedTaxationGate(calls: ActionCaller, partnerId: string, issuer: Pick<IssuerSnapshot, 'fiscalBrainEnabled'>): Promise<void> {
  const partner = await calls.call<{ plan: Plan }>('v1.auth.getPartner', { partnerId });
  const plano = planIncludesFiscalBrain(partner.plan);
  if (!plano || !issuer.fiscalBrainEnabled) {
    throw new DomainError('TRIBUTACAO_ASSISTIDA_INDISPONIVEL', { plano: partner.plan, planoIncluiFiscalBrain: plano, fiscalBrainEnabled: issuer.fiscalBrainEnabled });
  }
}

export async function assistedTaxation(
  calls: ActionCaller,
  req: { partnerId: string; model: GoodsModel; rawBody: unknown },
  issuer: IssuerSnapshot,
  body: DocumentBody,
  now: Date,
): Promise<AssistedTaxation | null> {
  if (body.resolverTributacao !== true) return null;
  await checkAssistedTaxationGate(calls, req.partnerId, issuer);
  const rawItems = req.rawBody && typeof req.rawBody === 'object' ? (req.rawBody as Record<string, unknown>).items : undefined;
  const items = itemsToResolve(body.items, rawItems);
  const csosn = new Map<number, string>();
  body.items.forEach((item, index) => {
    const c = defaultCsosn(item.icms, item.cfop, issuer.crt, req.model);
    if (c) csosn.set(index, c);
  });
  const answer: ResolveGoodsAnswer = items.length
    ? await calls.call<ResolveGoodsAnswer>('v1.classification.resolveGoods', { issuerId: issuer.id, model: req.model, day: brasiliaDay(now), items })
    : { resolved: [], sentClasses: [], versao: '', fonte: '' };
  const fonte = `${answer.fonte}; tabela ${answer.versao}`;
  const applied = applyResolution(body, answer.resolved, csosn, fonte);
  const result: AssistedTaxation = { body: applied.body as DocumentBody, tributacaoResolvida: applied.views };
  if (answer.sentClasses.length) result.afterInsert = productClassEvent(req.partnerId, issuer.id, answer.sentClasses);
  return result;
}

function productClassEvent(partnerId: string, issuerId: string, sent: ProductClassEvent['data']['classes']): AfterInsert {
  // One class per item code: the last item of the note with that code wins, as it is the last written.
  const classes = [...new Map(sent.map((s) => [s.codigo, s])).values()];
  return async (trx, created) => {
    const event: ProductClassEvent = {
      id: randomUUID(), type: PRODUCT_CLASS_EVENT, timestamp: created.createdAt.toISOString(), partnerId,
      data: { issuerId, documentId: created.id, classes },
    };
    await trx(OUTBOX_TABLE).insert({ id: event.id, channel: PRODUCT_CLASS_CHANNEL, payload: JSON.stringify(event), created_at: created.createdAt });
    return created;
  };
}

/** Runs both creation hooks in order (contingency entry, then the product-class event). */
export function chainAfterInsert(first: AfterInsert | undefined, second: AfterInsert | undefined): AfterInsert | undefined {
  if (!first || !second) return first ?? second;
  return async (trx, created) => second(trx, await first(trx, created));
}

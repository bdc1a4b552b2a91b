import { statusInWords } from '../../lib/emission/status-words.js';
import { DomainError } from '../../lib/errors/index.js';
import type { Model } from '../../lib/nfe/types.js';
import { resolveSeries } from '../../lib/emission/series.js';
import { checkRange, inutilizacaoView } from '../../lib/emission/inutilizacao.js';
import { mayHaveBeenSent } from '../../lib/emission/fiscal-events.js';
import { fiscalTextRule, JUSTIFICATIVA_MAX, JUSTIFICATIVA_MIN } from '../../lib/emission/fiscal-text.js';
import type { InutilizacaoResult } from '../../lib/sefaz/results.js';
import type { EmissionDeps } from './deps.js';
import type { InutilizacaoStore, RangeSettlement } from './inutilizacao-store.js';
import { inutilizar, issuerWithPreflight } from './ports.js';
import { isIdShaped } from '../../lib/validation/uuid.js';

/** Body of POST /v1/{nfe|nfce}/inutilizacao. */
export const inutilizacaoParams = {
  $$strict: true,
  issuerId: { type: 'uuid', optional: true, description: 'Opcional com um só emissor; obrigatório com dois ou mais (como na emissão).' },
  serie: { type: 'number', integer: true, min: 0, max: 999, optional: true, description: 'Padrão: a série do emissor para o modelo. Emissores comuns usam 0 a 889.' },
  numeroInicial: { type: 'number', integer: true, min: 1, max: 999_999_999 },
  numeroFinal: { type: 'number', integer: true, min: 1, max: 999_999_999, description: '>= numeroInicial; no máximo 10000 números por requisição.' },
  justificativa: fiscalTextRule(JUSTIFICATIVA_MIN, JUSTIFICATIVA_MAX, 'xJust: 15 a 255 caracteres imprimíveis; nunca completada nem truncada.'),
} as const;

export interface InutilizacaoBody {
  issuerId?: string;
  serie?: number;
  numeroInicial: number;
  numeroFinal: number;
  justificativa: string;
}

export const listInutilizacaoParams = {
  $$strict: true,
  issuerId: { type: 'uuid', optional: true },
  serie: { type: 'number', integer: true, min: 0, max: 999, convert: true, optional: true },
  limit: { type: 'number', integer: true, min: 1, max: 100, convert: true, optional: true, default: 50 },
} as const;

type Deps = Pick<EmissionDeps, 'calls'> & { inutilizacoes: InutilizacaoStore };

/** `uncertain`: an earlier send may have reached the authority (lib/emission/fiscal-events.ts mayHaveBeenSent). */
function settle(result: InutilizacaoResult, uncertain: boolean): RangeSettlement {
  switch (result.kind) {
    case 'homologated':
      return { kind: 'homologated', protocol: result.protocol, at: new Date(result.receivedAt), xml: result.procInutXml, cStat: result.cStat, xMotivo: result.xMotivo };
    case 'rejected':
      // 256 (a number of the range already inutilized) after a send that may have been processed:
      // that earlier send is what the authority registered. There is no consult of an inutilização,
      // so the range is kept (never released to the numbering) without a protocol.
      if (result.cStat === 256 && uncertain) return { kind: 'homologated', protocol: null, at: null, xml: null, cStat: result.cStat, xMotivo: result.xMotivo };
      return { kind: 'rejected', cStat: result.cStat, xMotivo: result.xMotivo };
    default:
      return { kind: 'unanswered', outcome: uncertain ? 'unknown' : result.kind, detail: `${result.reason}: ${result.detail}` };
  }
}

/**
 * range (422) → issuer selection and certificate (400/403/404/422) → series (422) → claim under
 * the numbering lock (409) → authority → settle. No answer: 503 AUTORIDADE_INDISPONIVEL with the
 * range kept PENDING (reserved); repeating the same request completes it.
 */
export async function inutilize(deps: Deps, req: { partnerId: string; keyKind: 'live' | 'test' | null; model: Model; body: InutilizacaoBody }): Promise<{ created: boolean; view: ReturnType<typeof inutilizacaoView> }> {
  const b = req.body;
  checkRange(b.numeroInicial, b.numeroFinal);
  const { issuer, preflight } = await issuerWithPreflight(deps.calls, { partnerId: req.partnerId, ...(b.issuerId ? { issuerId: b.issuerId } : {}), model: req.model, keyKind: req.keyKind });
  if (preflight?.type === 'CERTIFICADO_AUSENTE') throw preflight;
  const series = resolveSeries(b.serie, issuer, req.model);
  const space = { issuerId: issuer.id, cnpj: issuer.cnpj, model: req.model, series, environment: issuer.ambienteFiscal };
  const { decision, range } = await deps.inutilizacoes.claim(space, { partnerId: req.partnerId, start: b.numeroInicial, end: b.numeroFinal, justificativa: b.justificativa });
  if (decision.kind === 'done') return { created: false, view: inutilizacaoView(range) };
  const result = await inutilizar(deps.calls, {
    issuerId: issuer.id, uf: issuer.endereco.uf, model: req.model, ambiente: issuer.ambienteFiscal, cnpj: issuer.cnpj,
    serie: series, inicio: range.start, fim: range.end, justificativa: range.justificativa,
  });
  const s = settle(result, mayHaveBeenSent(range));
  const stored = await deps.inutilizacoes.settle(range, s);
  const ref = { inutilizacaoId: stored.id, numeroInicial: stored.start, numeroFinal: stored.end };
  if (s.kind === 'rejected') throw new DomainError('INUTILIZACAO_REJEITADA', { cStat: s.cStat, xMotivo: s.xMotivo, ...ref }, `Inutilização rejeitada pela autoridade fiscal: ${s.cStat} - ${s.xMotivo}`);
  if (s.kind === 'unanswered') throw new DomainError('AUTORIDADE_INDISPONIVEL', { ...ref, situacao: s.outcome === 'failed' ? 'nao_enviado' : 'indeterminada' });
  return { created: true, view: inutilizacaoView(stored) };
}

export async function listInutilizacoes(deps: Deps, partnerId: string, model: Model, q: { issuerId?: string; serie?: number; limit?: number }) {
  const rows = await deps.inutilizacoes.list({ partnerId, model, limit: q.limit ?? 50, ...(q.issuerId ? { issuerId: q.issuerId } : {}), ...(q.serie !== undefined ? { serie: q.serie } : {}) });
  return { items: rows.map(inutilizacaoView) };
}

export async function inutilizacaoXml(deps: Deps, partnerId: string, model: Model, id: unknown): Promise<{ xml: string; filename: string }> {
  const range = isIdShaped(id) ? await deps.inutilizacoes.get(id) : undefined;
  if (!range || range.partnerId !== partnerId || range.model !== model) throw new DomainError('NOT_FOUND', undefined, 'Inutilização não encontrada.');
  const xml = await deps.inutilizacoes.xmlOf(range.id);
  if (!xml) throw new DomainError('CONFLICT', { status: range.status }, `XML indisponível para inutilização ${statusInWords(range.status, 'f')}: há ProcInutNFe só depois da homologação com protocolo.`);
  return { xml, filename: `${range.id}-procInutNFe.xml` };
}

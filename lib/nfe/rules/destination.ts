import { DomainError } from '../../errors/index.js';
import type { Destinatario, Item } from '../types.js';

/** First CFOP digit → idDest (API.md, NF-e payload: 1/5 internal, 2/6 interstate, 3/7 foreign). */
const ID_DEST_BY_DIGIT: Readonly<Record<string, 1 | 2 | 3>> = { 1: 1, 5: 1, 2: 2, 6: 2, 3: 3, 7: 3 };

export function idDestOfCfop(cfop: string): 1 | 2 | 3 {
  const idDest = ID_DEST_BY_DIGIT[cfop[0]!];
  if (!idDest) throw new RangeError(`CFOP without a destination digit: ${cfop}`);
  return idDest;
}

/**
 * idDest: the explicit value wins; otherwise derived from the items' CFOP. Items deriving
 * different values refuse 422 CFOP_IDDEST_DIVERGENTE in either case (API.md, NF-e payload).
 */
export function resolveIdDest(items: readonly Pick<Item, 'cfop'>[], explicit: 1 | 2 | 3 | undefined): 1 | 2 | 3 {
  const derived = items.map((item, index) => ({ item: index, cfop: item.cfop, idDest: idDestOfCfop(item.cfop) }));
  const distinct = new Set(derived.map((d) => d.idDest));
  if (distinct.size > 1) throw new DomainError('CFOP_IDDEST_DIVERGENTE', { itens: derived });
  return explicit ?? derived[0]!.idDest;
}

/** A CPF recipient or `indicadorIE` 9 is a non-contributor (API.md, indFinal). */
export function isNonContributor(dest: Pick<Destinatario, 'cnpjCpf' | 'indicadorIE'>): boolean {
  return dest.indicadorIE === 9 || dest.cnpjCpf.length === 11;
}

/** indFinal default 1 for a non-contributor, else 0; 0 with a non-contributor refuses 422. */
export function resolveIndFinal(dest: Pick<Destinatario, 'cnpjCpf' | 'indicadorIE'>, sent: 0 | 1 | undefined): 0 | 1 {
  const nonContributor = isNonContributor(dest);
  if (sent === 0 && nonContributor) {
    throw new DomainError('INDFINAL_INCOERENTE_COM_DESTINATARIO', {
      campo: 'indFinal', indicadorIE: dest.indicadorIE, documento: dest.cnpjCpf.length === 11 ? 'CPF' : 'CNPJ',
    });
  }
  return sent ?? (nonContributor ? 1 : 0);
}

/** NFC-e is always an internal operation (idDest 1): an item with a 6xxx/7xxx CFOP refuses. */
export function checkNfceInternal(items: readonly Pick<Item, 'cfop'>[]): void {
  const outside = items.map((item, index) => ({ item: index, cfop: item.cfop, idDest: idDestOfCfop(item.cfop) })).filter((d) => d.idDest !== 1);
  if (outside.length) throw new DomainError('CFOP_IDDEST_DIVERGENTE', { itens: outside, motivo: 'NFC-e aceita apenas operação interna (CFOP 1xxx ou 5xxx)' });
}

import { DomainError } from '../errors/index.js';
import type { IssuerSnapshot } from '../issuer/types.js';
import type { Model } from '../nfe/types.js';

/**
 * The series of a note: the one sent, or the issuer's default for the model (API.md, NF-e payload:
 * `serie` 0-999, default the issuer's series; ordinary issuers use 0-889 — 890-899 are the tax
 * authority's own (avulsa) and 900-999 belong to contingency systems, MOC 4.00 §5.3).
 */
export const ORDINARY_SERIES_MAX = 889;

export function resolveSeries(sent: number | undefined, issuer: Pick<IssuerSnapshot, 'serieNfe' | 'serieNfce'>, model: Model): number {
  const series = sent ?? (model === '55' ? issuer.serieNfe : issuer.serieNfce);
  if (!Number.isInteger(series) || series < 0 || series > ORDINARY_SERIES_MAX) {
    throw new DomainError('SERIE_NAO_PERMITIDA', { serie: series }, `Série ${series} reservada: emissores comuns usam 0 a ${ORDINARY_SERIES_MAX}.`);
  }
  return series;
}

import { DomainError } from '../../errors/index.js';
import type { AdesaoMunicipio } from '../types.js';

/**
 * API.md, NFS-e rule 9, the pure decision: a municipality already confirmed `nao_aderente` to the
 * national standard in the issuer's environment refuses before numbering; `desconhecido` (never
 * asked, or the answer was not conclusive) never does, and the emission goes on; the authority
 * then answers for it. The service fetches the status (and stores what the authority says).
 */
export function checkAdesaoMunicipio(codigoMunicipio: string, adesao: AdesaoMunicipio, mensagemSefin?: string): void {
  if (adesao !== 'nao_aderente') return;
  throw new DomainError('MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL', {
    codigoMunicipio,
    ...(mensagemSefin !== undefined ? { mensagemSefin } : {}),
  });
}

/** The authority's code for "municipality does not adhere to the national standard" (Sefin Nacional). */
export const SEFIN_MUNICIPIO_NAO_ADERENTE = 'E0037';

/**
 * The refusal when the authority itself answers E0037: the same catalogued code, its message kept
 * verbatim in `details.mensagemSefin`. Returns undefined for any other answer code.
 */
export function municipioNaoAderenteFromSefin(codigoMunicipio: string, codigo: string, mensagem: string): DomainError | undefined {
  if (codigo !== SEFIN_MUNICIPIO_NAO_ADERENTE) return undefined;
  return new DomainError('MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL', { codigoMunicipio, mensagemSefin: mensagem });
}

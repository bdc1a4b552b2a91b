import { DomainError } from '../../errors/index.js';

/**
 * API.md, NFS-e rule 3: `dpsNacional.cTribMun` and `servico.codigoTributacaoMunicipio` write the
 * same tag (cServ/cTribMun). Either one is written; both with different values refuse.
 */
export function resolveCTribMun(cTribMun: string | undefined, codigoTributacaoMunicipio: string | undefined): string | undefined {
  if (cTribMun !== undefined && codigoTributacaoMunicipio !== undefined && cTribMun !== codigoTributacaoMunicipio) {
    throw new DomainError('CTRIBMUN_CONFLITO', {
      campos: ['dpsNacional.cTribMun', 'servico.codigoTributacaoMunicipio'],
      recebido: { cTribMun, codigoTributacaoMunicipio },
    });
  }
  return cTribMun ?? codigoTributacaoMunicipio;
}

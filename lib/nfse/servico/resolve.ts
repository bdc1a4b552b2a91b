import { DomainError } from '../../errors/index.js';
import type { Crt, TribIssqnPadrao } from '../../issuer/types.js';
import { FONTE_CORRELACAO, FONTE_LISTA_SERVICO, normalizeLc116, type ServiceItem } from './catalog.js';

/**
 * Assisted taxation of a service (API.md, "Assisted taxation": POST /v1/fiscal/resolve-servico;
 * NFS-e rule 10): LC 116 item → cTribNac → NBS → IBS/CBS place and class → ISS treatment, each value
 * with its source. Pure: the item comes from the caller's lookup (lib/nfse/servico/catalog.ts).
 *
 * The item is the request's `lc116` or else the issuer's fixed activity (`servicoPadraoLc116`).
 * cTribNac: the issuer's `cTribNacPadrao` when it belongs to the item, else the item's only national
 * desdobro; several desdobros leave it open with `candidatas`. NBS the same way with
 * `codigoNbsPadrao` and Anexo VIII's NBS of the item. MEI and Simples optants pay the ISS in the
 * monthly DAS: the ISS of the document is informative. tribISSQN is the issuer's `tribIssqnPadrao`
 * when set (`tribISSQNFonte: 'cadastro'`), else 1, operação tributável (`'padrao'`), the usual
 * case, said as such so a partner can tell it was not the issuer's choice.
 */
export interface ResolveServicoIssuer {
  crt: Crt;
  servicoPadraoLc116?: string | null;
  cTribNacPadrao?: string | null;
  codigoNbsPadrao?: string | null;
  tribIssqnPadrao?: TribIssqnPadrao | null;
  endereco: { codigoMunicipio: string };
}

export interface ResolveServicoInput {
  lc116?: string;
  municipio?: string;
}

export type Fonte = 'requisicao' | 'cadastro' | string;

export interface ServicoResolvido {
  lc116: { item: string; descricao: string | null; fonte: Fonte };
  cTribNac: { codigo: string | null; descricao: string | null; fonte: Fonte | null; candidatas: { codigo: string; descricao: string }[] };
  nbs: { codigo: string | null; descricao: string | null; fonte: Fonte | null; candidatas: { codigo: string; descricao: string }[] };
  ibsCbs: { indOp: string | null; localIncidencia: string | null; cClassTrib: string | null; fonte: string } | null;
  iss: { municipio: string; tribISSQN: TribIssqnPadrao; tribISSQNFonte: 'cadastro' | 'padrao'; regime: 'mei' | 'simples_nacional' | 'normal'; informativo: boolean; observacao: string };
  camposNaoResolvidos: { campo: string; motivo: string }[];
}

/** tribISSQN other than 1 (DPS layout, tribISSQN): why no ISSQN is due. */
const NOT_TAXABLE: Record<Exclude<TribIssqnPadrao, 1>, string> = { 2: 'imunidade', 3: 'exportação de serviço', 4: 'não incidência' };

export function resolveServico(input: ResolveServicoInput, issuer: ResolveServicoIssuer, lookup: (item: string) => ServiceItem | undefined): ServicoResolvido {
  const sent = input.lc116 ?? issuer.servicoPadraoLc116 ?? undefined;
  if (sent === undefined) {
    throw new DomainError('TRIBUTACAO_NAO_RESOLVIDA', { camposNaoResolvidos: [{ campo: 'lc116', motivo: 'informe lc116 ou cadastre servicoPadraoLc116 no emissor' }] });
  }
  const item = normalizeLc116(sent);
  const found = item ? lookup(item) : undefined;
  if (!item || !found) {
    throw new DomainError('TRIBUTACAO_NAO_RESOLVIDA', { camposNaoResolvidos: [{ campo: 'lc116', motivo: `item ${sent} inexistente na lista de serviços nacional (Anexo B)` }] });
  }
  const unresolved: { campo: string; motivo: string }[] = [];
  const pick = <T extends { codigo: string; descricao: string }>(list: T[], own: string | null | undefined, source: string) => {
    const mine = own ? list.find((c) => c.codigo === own) : undefined;
    if (mine) return { codigo: mine.codigo, descricao: mine.descricao, fonte: 'cadastro' as Fonte, candidatas: [] };
    if (list.length === 1) return { codigo: list[0]!.codigo, descricao: list[0]!.descricao, fonte: source, candidatas: [] };
    return { codigo: null, descricao: null, fonte: null, candidatas: list.map(({ codigo, descricao }) => ({ codigo, descricao })) };
  };
  const cTribNac = pick(found.desdobros, issuer.cTribNacPadrao, FONTE_LISTA_SERVICO);
  if (!cTribNac.codigo) unresolved.push({ campo: 'cTribNac', motivo: `o item ${item} tem ${found.desdobros.length} desdobros nacionais: escolha um de candidatas` });
  const nbs = pick(found.nbs, issuer.codigoNbsPadrao, FONTE_CORRELACAO);
  if (!nbs.codigo) {
    unresolved.push({ campo: 'codigoNBS', motivo: found.nbs.length ? `o item ${item} correlaciona ${found.nbs.length} NBS: escolha um de candidatas` : `o Anexo VIII não correlaciona NBS ao item ${item}` });
  }
  const chosen = found.nbs.find((n) => n.codigo === nbs.codigo) ?? found.nbs[0];
  const regime = issuer.crt === 4 ? 'mei' : issuer.crt === 3 ? 'normal' : 'simples_nacional';
  const tribISSQN: TribIssqnPadrao = issuer.tribIssqnPadrao ?? 1;
  return {
    lc116: { item, descricao: found.descricao, fonte: input.lc116 !== undefined ? 'requisicao' : 'cadastro' },
    cTribNac,
    nbs,
    ibsCbs: chosen ? { indOp: chosen.indOp, localIncidencia: chosen.localIncidencia, cClassTrib: chosen.cClassTrib, fonte: FONTE_CORRELACAO } : null,
    iss: {
      municipio: input.municipio ?? issuer.endereco.codigoMunicipio,
      tribISSQN,
      tribISSQNFonte: issuer.tribIssqnPadrao ? 'cadastro' : 'padrao',
      regime,
      informativo: regime !== 'normal',
      observacao: tribISSQN !== 1
        ? `ISSQN não devido: ${NOT_TAXABLE[tribISSQN]} (tribISSQN ${tribISSQN}, tribIssqnPadrao do emissor).`
        : regime === 'normal'
          ? 'ISSQN apurado na NFS-e com a alíquota do município de incidência (informe servico.aliquotaIss).'
          : 'ISSQN recolhido no DAS mensal (Simples Nacional/MEI): o valor na NFS-e é informativo.',
    },
    camposNaoResolvidos: unresolved,
  };
}

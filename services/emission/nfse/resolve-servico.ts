import type { Context } from 'moleculer';
import { DomainError } from '../../../lib/errors/index.js';
import { planIncludesFiscalBrain } from '../../../lib/plans.js';
import type { IssuerSnapshot } from '../../../lib/issuer/types.js';
import { formatCents, toCents } from '../../../lib/money.js';
import { serviceItem } from '../../../lib/nfse/servico/catalog.js';
import { resolveServico } from '../../../lib/nfse/servico/resolve.js';
import type { CallerMeta } from '../../shared/caller.js';

/**
 * POST /v1/fiscal/resolve-servico (API.md, "Assisted taxation"): the issuer is resolved as for an
 * emission (404 another partner's, 403 ek_test_ on production) and lib/nfse/servico answers from the
 * official annexes. Nothing is stored.
 */
type Ctx = Context<{ issuerId: string; lc116?: string; municipio?: string; valor?: number; dataEmissao?: string }, CallerMeta>;

const fonte = { type: ['string', 'null'], description: 'cadastro, requisicao ou o anexo oficial de onde veio o valor' };
const candidata = { type: 'object', properties: { codigo: { type: 'string' }, descricao: { type: 'string' } } };

export const resolveServicoAction = {
  rest: 'POST /fiscal/resolve-servico',
  params: {
    $$strict: true,
    issuerId: { type: 'uuid', description: 'Emissor cujo cadastro (servicoPadraoLc116, cTribNacPadrao, codigoNbsPadrao, crt) é a base.' },
    lc116: { type: 'string', min: 1, max: 10, optional: true, description: 'Item da LC 116 (ex. 1.07); ausente = servicoPadraoLc116 do emissor.' },
    municipio: { type: 'string', min: 1, optional: true, pattern: /^\d{7}$/, description: 'Código IBGE do município de incidência do ISS; ausente = o do emissor.' },
    valor: { type: 'decimal', intDigits: 15, fracDigits: 2, min: 0, optional: true, description: 'Valor do serviço, até 2 decimais (ecoado como decimal string).' },
    dataEmissao: { type: 'string', min: 1, max: 40, optional: true, description: 'Data de referência (ecoada); as tabelas usadas são as vigentes listadas em fontes.' },
  },
  openapi: {
    summary: 'Resolve a classificação do serviço (LC 116 → cTribNac → NBS) e a tributação da NFS-e', tags: ['tributação assistida'],
    description: 'Pelo item LC 116 do corpo (lc116) ou pela atividade fixa do emissor (servicoPadraoLc116). Cada valor traz sua fonte (cadastro, requisicao ou o anexo oficial). '
      + 'Item com vários desdobros/NBS sem escolha no cadastro: codigo null, candidatas[] e camposNaoResolvidos[]. MEI e Simples Nacional: ISS informativo (recolhido no DAS mensal). '
      + 'Sem item no corpo nem no cadastro, ou item fora da lista nacional: 422 TRIBUTACAO_NAO_RESOLVIDA com camposNaoResolvidos. Exige plano com fiscalBrain e o emissor com fiscalBrainEnabled (403 TRIBUTACAO_ASSISTIDA_INDISPONIVEL). A emissão com resolverTributacao: true usa o mesmo resolvedor (regra 10).',
    requestExample: { issuerId: '8cfea046-5d1c-4c1e-9d0c-0b1f2a3c4d5e', lc116: '1.01', municipio: '3550308', valor: 1500, dataEmissao: '2026-11-22' },
    response: {
      type: 'object',
      properties: {
        lc116: { type: 'object', properties: { item: { type: 'string' }, descricao: { type: ['string', 'null'] }, fonte } },
        cTribNac: { type: 'object', properties: { codigo: { type: ['string', 'null'] }, descricao: { type: ['string', 'null'] }, fonte, candidatas: { type: 'array', items: candidata } } },
        nbs: { type: 'object', properties: { codigo: { type: ['string', 'null'] }, descricao: { type: ['string', 'null'] }, fonte, candidatas: { type: 'array', items: candidata } } },
        ibsCbs: { type: ['object', 'null'], properties: { indOp: { type: ['string', 'null'] }, localIncidencia: { type: ['string', 'null'] }, cClassTrib: { type: ['string', 'null'] }, fonte: { type: 'string' } } },
        iss: { type: 'object', properties: { municipio: { type: 'string' }, tribISSQN: { type: 'integer', enum: [1, 2, 3, 4] }, tribISSQNFonte: { enum: ['cadastro', 'padrao'], description: 'cadastro: tribIssqnPadrao do emissor; padrao: 1 (operação tributável), o emissor não tem tribIssqnPadrao.' }, regime: { enum: ['mei', 'simples_nacional', 'normal'] }, informativo: { type: 'boolean' }, observacao: { type: 'string' } } },
        camposNaoResolvidos: { type: 'array', items: { type: 'object', properties: { campo: { type: 'string' }, motivo: { type: 'string' } } } },
        valor: { type: ['string', 'null'] }, dataEmissao: { type: ['string', 'null'] }, issuerId: { type: 'string', format: 'uuid' },
      },
    },
    responseExample: {
      lc116: { item: '01.01', descricao: 'Análise e desenvolvimento de sistemas.', fonte: 'requisicao' },
      cTribNac: { codigo: '010101', descricao: 'Análise e desenvolvimento de sistemas.', fonte: 'Anexo B do SN NFS-e, lista de serviços nacional v1.01 (2026-01-22)', candidatas: [] },
      nbs: { codigo: '115021000', descricao: 'Serviços de projeto, desenvolvimento e instalação de aplicativos e programas não personalizados (não customizados)', fonte: 'cadastro', candidatas: [] },
      ibsCbs: { indOp: '100301', localIncidencia: 'Domicílio principal do adquirente', cClassTrib: '000001', fonte: 'Anexo VIII RTC (NT 009), correlação item LC 116 × NBS × indOp × cClassTrib v1.01.00' },
      iss: { municipio: '3550308', tribISSQN: 1, tribISSQNFonte: 'padrao', regime: 'simples_nacional', informativo: true, observacao: 'ISSQN recolhido no DAS mensal (Simples Nacional/MEI): o valor na NFS-e é informativo.' },
      camposNaoResolvidos: [], valor: '1500.00', dataEmissao: '2026-11-22', issuerId: '8cfea046-5d1c-4c1e-9d0c-0b1f2a3c4d5e',
    },
  },
  async handler(ctx: Ctx) {
    const caller = ctx.meta.caller;
    if (!caller?.partnerId) throw new DomainError('FORBIDDEN', undefined, 'Credencial sem parceiro: a tributação assistida exige um parceiro.');
    // Part of the assisted-taxation module, like the goods classification routes: the plan decides.
    if (!planIncludesFiscalBrain(caller.plan)) throw new DomainError('TRIBUTACAO_ASSISTIDA_INDISPONIVEL', { plano: caller.plan, planoIncluiFiscalBrain: false });
    const { issuer } = await ctx.call('v1.issuer.forEmission', { partnerId: caller.partnerId, issuerId: ctx.params.issuerId, model: 'NFSe', keyKind: caller.keyKind, preflight: 'report' }) as { issuer: IssuerSnapshot };
    // …and the issuer opted in, as for an emission with resolverTributacao (the gate of API.md, "What the service does" 5).
    if (!issuer.fiscalBrainEnabled) throw new DomainError('TRIBUTACAO_ASSISTIDA_INDISPONIVEL', { plano: caller.plan, planoIncluiFiscalBrain: true, fiscalBrainEnabled: false });
    const { lc116, municipio, valor, dataEmissao } = ctx.params;
    const resolved = resolveServico({ ...(lc116 !== undefined ? { lc116 } : {}), ...(municipio !== undefined ? { municipio } : {}) }, issuer, serviceItem);
    return { ...resolved, valor: valor !== undefined ? formatCents(toCents(valor)) : null, dataEmissao: dataEmissao ?? null, issuerId: issuer.id };
  },
};

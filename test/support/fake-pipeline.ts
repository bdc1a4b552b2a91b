/**
 * TEST ONLY. A small but honest DocumentPipeline for the emission service's tests, standing in
 * for lib/nfe/validate.ts, check.ts, totals.ts and document.ts (built in other branches): strict
 * validation of a reduced body with the project's validator (400 with paths and
 * camposDesconhecidos), one real rule (CFOP destinations, 422), exact totals in cents, and a
 * deterministic NFe XML carrying the real access key, signed with the issuer's key.
 * Never import it from services/ or lib/.
 */
import { createHash, createSign } from 'node:crypto';
import { DomainError } from '../../lib/errors/index.js';
import { sharedValidator } from '../../lib/validation/validator.js';
import { toValidationError } from '../../lib/validation/field-errors.js';
import { UF_BY_SIGLA, buildAccessKey } from '../../lib/nfe/access-key.js';
import { formatCents, multiplyRound, toScaled } from '../../lib/money.js';
import type { DocumentBody, DocumentPipeline } from '../../lib/emission/pipeline.js';
import { applyApproximateTax } from '../../lib/nfe/approximate-tax.js';
import type { CheckedItem, CheckedNote, Model, NoteTotals } from '../../lib/nfe/types.js';

const item = {
  type: 'object', strict: true, props: {
    codigo: { type: 'string', min: 1, max: 60 },
    descricao: { type: 'string', min: 1, max: 120 },
    ncm: { type: 'string', pattern: /^\d{8}$/, optional: true, default: '00000000' },
    cfop: { type: 'string', pattern: /^\d{4}$/ },
    unidade: { type: 'string', min: 1, max: 6, optional: true, default: 'UN' },
    quantidade: { type: 'decimal', intDigits: 11, fracDigits: 4, min: 0 },
    valorUnitario: { type: 'decimal', intDigits: 11, fracDigits: 10, min: 0 },
  },
};
const common = {
  $$strict: true,
  issuerId: { type: 'uuid', optional: true },
  naturezaOperacao: { type: 'string', min: 1, max: 60, optional: true, default: 'Venda de Mercadoria' },
  serie: { type: 'number', integer: true, min: 0, max: 999, optional: true },
  numero: { type: 'number', integer: true, min: 1, max: 999999999, optional: true },
  items: { type: 'array', min: 1, max: 990, items: item },
  pagamentos: { type: 'array', optional: true, items: { type: 'object', strict: true, props: { forma: { type: 'string', pattern: /^\d{2}$/ }, valor: { type: 'decimal', intDigits: 13, fracDigits: 2, min: 0 } } } },
};
const schemas: Record<Model, Record<string, unknown>> = {
  '55': { ...common },
  '65': { ...common, contingencia: { type: 'boolean', optional: true }, justificativaContingencia: { type: 'string', min: 15, max: 256, optional: true }, destCPF: { type: 'string', pattern: /^(\d{11}|\d{14})$/, optional: true } },
};
const checkers = new Map<Model, (v: unknown) => true | unknown[] | Promise<true | unknown[]>>();

function destinationOf(cfop: string): 1 | 2 | 3 {
  const first = cfop[0];
  return first === '1' || first === '5' ? 1 : first === '2' || first === '6' ? 2 : 3;
}

const ZERO_TOTALS: Omit<NoteTotals, 'vProd' | 'vNF'> = {
  vBC: 0n, vICMS: 0n, vICMSDeson: 0n, vFCP: 0n, vBCST: 0n, vST: 0n, vFCPST: 0n, qBCMono: 0n, vICMSMono: 0n, qBCMonoRet: 0n,
  vICMSMonoRet: 0n, vFrete: 0n, vSeg: 0n, vDesc: 0n, vIPI: 0n, vPIS: 0n, vCOFINS: 0n, vOutro: 0n, vTotTrib: 0n,
};

export const fakePipeline: DocumentPipeline = {
  async validate(model, body) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'body', message: 'O corpo deve ser um objeto JSON.' }] });
    }
    let check = checkers.get(model);
    if (!check) { check = sharedValidator().compile({ $$root: false, ...schemas[model] }) as any; checkers.set(model, check!); }
    const copy = structuredClone(body);
    const result = await check!(copy);
    if (result !== true) throw toValidationError(result as any[]);
    return copy as DocumentBody;
  },

  check(model, body, _issuer) {
    const dests = new Set(body.items.map((i) => destinationOf(i.cfop)));
    if (dests.size > 1) throw new DomainError('CFOP_IDDEST_DIVERGENTE', { cfops: body.items.map((i) => i.cfop) });
    const items: CheckedItem[] = body.items.map((i, n) => ({
      ...(i as any), nItem: n + 1, ean: 'SEM GTIN', indTot: 1, icms: { origem: 0, csosn: '102' },
      unidadeTributavel: i.unidade, quantidadeTributavel: i.quantidade, valorUnitarioTributavel: i.valorUnitario, eanTributavel: 'SEM GTIN',
      valorTotalCents: multiplyRound(toScaled(i.quantidade, 4), 4, toScaled(i.valorUnitario, 10), 10, 2),
    }));
    const note: CheckedNote = {
      model, naturezaOperacao: body.naturezaOperacao, tpNF: 1, idDest: [...dests][0]!, indFinal: 1, indPres: 1, finNFe: 1,
      referenciadas: [], items, transporte: { modFrete: 9 }, pagamentos: body.pagamentos ?? [{ forma: '01', valor: 0 }], processosReferenciados: [],
      ...(model === '65' ? { contingencia: { requested: (body as any).contingencia, justificativa: (body as any).justificativaContingencia ?? 'Autorizador da SEFAZ indisponivel no momento da emissao' } } : {}),
    };
    return note;
  },

  // The real lib function: its inputs (NCM, net price, origin) are present in the fake's checked items.
  approximateTax: applyApproximateTax,
  totals(note) {
    const vProd = note.items.reduce((s, i) => s + i.valorTotalCents, 0n);
    return { ...ZERO_TOTALS, vProd, vNF: vProd };
  },

  build(note, totals, ctx, material) {
    if (note.items.some((i) => i.descricao === 'FORA DO ESQUEMA')) throw new DomainError('XML_FORA_DO_ESQUEMA', { motivo: 'xProd reprovado (teste)' });
    const at = ctx.emittedAt.toISOString();
    const accessKey = buildAccessKey({
      cUF: UF_BY_SIGLA[ctx.issuer.endereco.uf]!, aamm: at.slice(2, 4) + at.slice(5, 7), document: ctx.issuer.cnpj, model: ctx.model,
      serie: ctx.series, numero: ctx.number, tpEmis: ctx.tpEmis, cNF: ctx.cnf,
    });
    const det = note.items.map((i) => `<det nItem="${i.nItem}"><prod><cProd>${i.codigo}</cProd><xProd>${i.descricao}</xProd><CFOP>${i.cfop}</CFOP><vProd>${formatCents(i.valorTotalCents)}</vProd></prod></det>`).join('');
    const infNFe = `<infNFe xmlns="http://www.portalfiscal.inf.br/nfe" Id="NFe${accessKey}" versao="4.00"><ide><cUF>${accessKey.slice(0, 2)}</cUF><cNF>${ctx.cnf}</cNF><mod>${ctx.model}</mod><serie>${ctx.series}</serie><nNF>${ctx.number}</nNF><dhEmi>${at}</dhEmi><tpEmis>${ctx.tpEmis}</tpEmis><tpAmb>${ctx.ambiente}</tpAmb>${ctx.contingency ? `<dhCont>${ctx.contingency.startedAt.toISOString()}</dhCont><xJust>${ctx.contingency.justificativa}</xJust>` : ''}</ide><emit><CNPJ>${ctx.issuer.cnpj}</CNPJ></emit>${det}<total><ICMSTot><vNF>${formatCents(totals.vNF)}</vNF></ICMSTot></total></infNFe>`;
    const digestValue = createHash('sha1').update(infNFe).digest('base64');
    const signatureValue = createSign('RSA-SHA1').update(infNFe).sign(material.keyPem, 'base64');
    const xml = `<NFe xmlns="http://www.portalfiscal.inf.br/nfe">${infNFe}<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><Reference URI="#NFe${accessKey}"><DigestValue>${digestValue}</DigestValue></Reference></SignedInfo><SignatureValue>${signatureValue}</SignatureValue></Signature></NFe>`;
    return { xml, accessKey, digestValue, ...(ctx.model === '65' ? { qrCode: `https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode?p=${accessKey}|2|${ctx.ambiente}|${ctx.issuer.cscId}|hash` } : {}) };
  },

  // The stand-in refuses in the draft what its build refuses, and builds again with the number.
  draft(note, totals, ctx, material) {
    if (note.items.some((i) => i.descricao === 'FORA DO ESQUEMA')) throw new DomainError('XML_FORA_DO_ESQUEMA', { motivo: 'xProd reprovado (teste)' });
    void material;
    return { note, totals, ctx, nfe: null };
  },
  finish(draft, number, cnf, material) {
    return fakePipeline.build(draft.note, draft.totals, { ...draft.ctx, number, cnf }, material);
  },
};

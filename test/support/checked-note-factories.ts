import { buildAccessKey, UF_BY_SIGLA } from '../../lib/nfe/access-key.js';
import { toCents, toScaled } from '../../lib/money.js';
import type { IssuerSnapshot, SigningMaterial } from '../../lib/issuer/types.js';
import type { CheckedItem, CheckedNote, Icms, NoteTotals, ResolvedIbsCbs, ResolvedRate } from '../../lib/nfe/types.js';
import type { EmissionContext, TpEmis } from '../../lib/nfe/xml/context.js';
import { createA1, createCa } from './certificates.js';

/**
 * Checked notes and their totals built directly (not through request validation, which another
 * branch writes): fiscally sensible, with totals that close. `totalsOf` sums per item after each
 * item was rounded, as the authority validates.
 */
export const PUBLIC_TEST_CSC = { csc: 'GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G', cscId: '000001' };

export function anIssuer(over: Partial<IssuerSnapshot> = {}): IssuerSnapshot {
  return {
    id: 'iss_1', partnerId: 'prt_1', cnpj: '12345678000195', razaoSocial: 'COMERCIO DE TESTES LTDA',
    nomeFantasia: 'LOJA TESTE', ie: '123456789012', crt: 3,
    endereco: {
      logradouro: 'Rua das Flores', numero: '100', complemento: 'Sala 2', bairro: 'Centro',
      codigoMunicipio: '3550308', municipio: 'Sao Paulo', uf: 'SP', cep: '01001000', telefone: '1133334444',
    },
    ambienteFiscal: 2, sandbox: false, csc: PUBLIC_TEST_CSC.csc, cscId: PUBLIC_TEST_CSC.cscId,
    serieNfe: 1, serieNfce: 1, serieNfse: 1,
    valorAproximadoTributosEnabled: false, fiscalBrainEnabled: false,
    ...over,
  };
}

let nextItem = 1;
/** An item of 2 × 10.50 with ICMS 00 at 18%, PIS/COFINS 01 (1.65% / 7.6%). */
export function anItem(over: Partial<CheckedItem> = {}): CheckedItem {
  const quantidade = over.quantidade ?? 2;
  const valorUnitario = over.valorUnitario ?? 10.5;
  const cents = over.valorTotalCents ?? toScaled(quantidade, 4) * toScaled(valorUnitario, 10) / 10n ** 12n;
  const vProd = Number(cents) / 100;
  const base = {
    nItem: nextItem++, codigo: 'P001', descricao: 'Caneta esferografica azul', ean: 'SEM GTIN', ncm: '96081000',
    cfop: '5102', unidade: 'UN', quantidade, valorUnitario, indTot: 1 as const,
    unidadeTributavel: 'UN', quantidadeTributavel: quantidade, valorUnitarioTributavel: valorUnitario, eanTributavel: 'SEM GTIN',
    valorTotalCents: cents,
    icms: { origem: 0, cst: '00', modBC: 3, vBC: vProd, pICMS: 18, vICMS: round2(vProd * 0.18) },
    pis: { cst: '01', baseCalculo: vProd, aliquota: 1.65, valor: round2(vProd * 0.0165) },
    cofins: { cst: '01', baseCalculo: vProd, aliquota: 7.6, valor: round2(vProd * 0.076) },
  };
  return { ...base, ...over } as CheckedItem;
}

/** The checked taxes of test/support/nfe-factories.ts aCompactItem (ICMS 41, PIS/COFINS 07): 990 such items fit 500 KB. */
export const COMPACT_TAXES = { icms: { origem: 0, cst: '41' }, pis: { cst: '07' }, cofins: { cst: '07' } } as Partial<CheckedItem>;

export const round2 = (v: number): number => Math.round((v + Number.EPSILON) * 100) / 100;

export function renumber(items: CheckedItem[]): CheckedItem[] {
  return items.map((it, i) => ({ ...it, nItem: i + 1 }));
}

function rateOf(p: string, base: bigint, red?: { pNominal: string; pRedAliq: string }): ResolvedRate {
  const [int, frac = ''] = p.split('.');
  const scaled = BigInt(int + frac.padEnd(4, '0'));
  const v = (base * scaled + 500000n) / 1000000n;
  return { p, v, ...(red ?? {}) };
}

/** IBS/CBS of 2026's test rates (CBS 0.90%, IBS UF 0.10%), optional reduction of 60%. */
export function ibsCbsFor(vBCcents: bigint, reduction = false): ResolvedIbsCbs {
  const ibsUf = reduction ? rateOf('0.0400', vBCcents, { pNominal: '0.10', pRedAliq: '60.00' }) : rateOf('0.10', vBCcents);
  const ibsMun = rateOf('0.00', vBCcents);
  const cbs = reduction ? rateOf('0.3600', vBCcents, { pNominal: '0.90', pRedAliq: '60.00' }) : rateOf('0.90', vBCcents);
  return { cst: reduction ? '200' : '000', cClassTrib: reduction ? '200003' : '000001', vBC: vBCcents, ibsUf, ibsMun, cbs, vIbs: ibsUf.v + ibsMun.v };
}

const c = (v: number | undefined): bigint => (v === undefined ? 0n : toCents(v));

/** The totals a correct lib/nfe/totals.ts computes for these items (test oracle). */
export function totalsOf(note: CheckedNote): NoteTotals {
  const t: NoteTotals = {
    vBC: 0n, vICMS: 0n, vICMSDeson: 0n, vFCP: 0n, vBCST: 0n, vST: 0n, vFCPST: 0n,
    qBCMono: 0n, vICMSMono: 0n, qBCMonoRet: 0n, vICMSMonoRet: 0n,
    vProd: 0n, vFrete: 0n, vSeg: 0n, vDesc: 0n, vIPI: 0n, vPIS: 0n, vCOFINS: 0n, vOutro: 0n, vNF: 0n, vTotTrib: 0n,
  };
  let ibs: NonNullable<NoteTotals['ibsCbs']> | undefined;
  for (const it of note.items) {
    const i: Icms = it.icms;
    if (it.indTot === 1) t.vProd += it.valorTotalCents;
    if (it.approximateTax) t.vTotTrib += it.approximateTax.total;
    t.vDesc += c(it.desconto); t.vFrete += c(it.valorFrete); t.vSeg += c(it.valorSeguro); t.vOutro += c(it.outrasDespesas);
    const ownIcms = ['00', '10', '20', '51', '70', '90'].includes(i.cst ?? '') || i.csosn === '900';
    if (ownIcms) { t.vBC += c(i.vBC ?? i.baseCalculo); t.vICMS += c(i.vICMS ?? i.valor); }
    t.vICMSDeson += c(i.vICMSDeson); t.vFCP += c(i.vFCP);
    t.vBCST += c(i.vBCST); t.vST += c(i.vICMSST); t.vFCPST += c(i.vFCPST);
    if (i.qBCMono !== undefined) t.qBCMono += toScaled(i.qBCMono, 4);
    t.vICMSMono += c(i.vICMSMono);
    if (i.qBCMonoRet !== undefined) t.qBCMonoRet += toScaled(i.qBCMonoRet, 4);
    t.vICMSMonoRet += c(i.vICMSMonoRet);
    if (it.ipi && ['00', '49', '50', '99'].includes(it.ipi.cst)) t.vIPI += c(it.ipi.valor);
    t.vPIS += c(it.pis?.valor); t.vCOFINS += c(it.cofins?.valor);
    const r = it.ibsCbsResolved;
    if (r) {
      ibs ??= { vBCIBSCBS: 0n, vIBSUF: 0n, vIBSMun: 0n, vIBS: 0n, vCBS: 0n };
      ibs.vBCIBSCBS += r.vBC; ibs.vIBSUF += r.ibsUf.v; ibs.vIBSMun += r.ibsMun.v; ibs.vIBS += r.vIbs; ibs.vCBS += r.cbs.v;
    }
    const d = it.icmsUfDestResolved;
    if (d) {
      t.icmsUfDest ??= { vFCPUFDest: 0n, vICMSUFDest: 0n, vICMSUFRemet: 0n };
      t.icmsUfDest.vFCPUFDest += d.fcp?.vFCPUFDest ?? 0n; t.icmsUfDest.vICMSUFDest += d.vICMSUFDest; t.icmsUfDest.vICMSUFRemet += d.vICMSUFRemet;
    }
  }
  t.vNF = t.vProd - t.vDesc + t.vFrete + t.vSeg + t.vOutro + t.vIPI + t.vST + t.vFCPST;
  if (ibs) t.ibsCbs = ibs;
  return t;
}

/** An NF-e (model 55) to a contributor in the same UF, paid in cash for exactly vNF. */
export function aNfe(items: CheckedItem[] = [anItem()], over: Partial<CheckedNote> = {}): CheckedNote {
  const note: CheckedNote = {
    model: '55', naturezaOperacao: 'Venda de mercadoria', tpNF: 1, idDest: 1, indFinal: 0, indPres: 1, finNFe: 1,
    referenciadas: [],
    destinatario: {
      cnpjCpf: '98765432000198', nome: 'CLIENTE CONTRIBUINTE SA', ie: '987654321098', indicadorIE: 1, email: 'compras@cliente.example',
      endereco: { logradouro: 'Av. Paulista', numero: '1000', bairro: 'Bela Vista', codigoMunicipio: '3550308', municipio: 'Sao Paulo', uf: 'SP', cep: '01310100' },
    },
    items: renumber(items), transporte: { modFrete: 9 }, pagamentos: [], processosReferenciados: [],
    ...over,
  };
  if (!over.pagamentos) note.pagamentos = [{ forma: '01', valor: Number(totalsOf(note).vNF) / 100 }];
  return note;
}

/** An NFC-e (model 65) to an unidentified consumer, paid in cash. */
export function aNfce(items: CheckedItem[] = [anItem({ cfop: '5102' })], over: Partial<CheckedNote> = {}): CheckedNote {
  return aNfe(items, { model: '65', indFinal: 1, indPres: 1, destinatario: undefined, ...over });
}

export const RESP_TEC = { cnpj: '11222333000181', contato: 'Suporte Plataforma Fiscal', email: 'suporte@plataforma.example', fone: '11999990000' };

/** A context whose access key is built from its own fields. */
export function aContext(note: CheckedNote, over: { issuer?: IssuerSnapshot; numero?: number; serie?: number; cNF?: string; dhEmi?: string; tpEmis?: TpEmis; tpAmb?: 1 | 2 } = {}): EmissionContext {
  const issuer = over.issuer ?? anIssuer();
  const numero = over.numero ?? 1234;
  const serie = over.serie ?? 1;
  const cNF = over.cNF ?? '87654321';
  const dhEmi = over.dhEmi ?? '2026-11-22T17:40:00-03:00';
  const tpEmis = over.tpEmis ?? 1;
  const accessKey = buildAccessKey({
    cUF: UF_BY_SIGLA[issuer.endereco.uf], aamm: dhEmi.slice(2, 4) + dhEmi.slice(5, 7), document: issuer.cnpj,
    model: note.model, serie, numero, tpEmis, cNF,
  });
  return {
    issuer, numero, serie, cNF, accessKey, dhEmi, tpEmis, tpAmb: over.tpAmb ?? issuer.ambienteFiscal, respTec: RESP_TEC, verProc: 'fiscal-api 2.1.0',
    ...(tpEmis !== 1 ? { contingency: { dhCont: '2026-11-22T17:30:00-03:00', xJust: 'Sem comunicacao com a SEFAZ autorizadora no momento' } } : {}),
  };
}

let material: SigningMaterial | undefined;
/** One A1 for the whole test file (RSA key generation is the slow part). */
export function testSigningMaterial(): SigningMaterial {
  if (!material) {
    const ca = createCa();
    const a1 = createA1(ca, { cnpj: '12345678000195' });
    material = { issuerId: 'iss_1', fingerprint: `fp-${Date.now()}`, keyPem: a1.keyPem, certPem: a1.certPem, chainPem: [ca.certPem], notAfter: '2099-01-01' };
  }
  return material;
}

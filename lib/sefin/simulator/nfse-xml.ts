import { el, leaf, opt, raw, trusted, type XmlNode } from '../../xml/writer.js';
import { formatCents, percentOf } from '../../money.js';
import { municipality } from '../../issuer/municipalities.js';
import type { DpsFacts } from './dps-facts.js';
import { NFSE_NS } from './dps-facts.js';
import { nbsDescription, tribNacDescription } from './service-list.js';

/**
 * The NFS-e Sefin generates from an accepted DPS (TCNFSe of NFSe_v1.01.xsd): infNFSe with the
 * authority's fields, the received DPS embedded whole (its own signature intact), then Sefin's
 * signature over infNFSe. Written canonical by construction (lib/xml/writer.ts) so `canonical` is
 * the digested form; the DPS arrives already in C14N (libxml2) with its namespace declaration
 * dropped, since it inherits the NFS-e's.
 */
export const NFSE_VERSION = '1.01';
export const SIMULATOR_VER_APLIC = 'SefinNacional_sim';

/** Who the NFS-e names as issuer: Sefin reads it from its register (CNC), not from the DPS. */
export interface Emitente {
  xNome: string;
  xLgr: string;
  nro: string;
  xCpl?: string;
  xBairro: string;
  cMun: string;
  uf: string;
  cep: string;
}

export interface NfseInput {
  dps: DpsFacts;
  /** The DPS element in C14N, without its xmlns declaration. */
  dpsCanonical: string;
  chaveAcesso: string;
  nNFSe: number;
  nDFSe: number;
  /** dhProc, e.g. 2026-11-25T14:00:00-03:00. */
  dhProc: string;
  emitente: Emitente;
}

function cents(decimal: string | undefined): bigint {
  if (!decimal) return 0n;
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!m) throw new RangeError(`not a decimal amount: ${decimal}`);
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
}

function place(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return municipality(code)?.nome;
}

/**
 * valores (TCValoresNFSe): the ISS base is the service less unconditional discounts and
 * deductions; the ISS is base × rate; retentions are the ISS when the taker or intermediary
 * withholds it (tpRetISSQN 2 or 3) plus the federal withholdings declared; vLiq is the service
 * less discounts and retentions.
 */
export function buildValoresNfse(dps: DpsFacts): XmlNode {
  const v = dps.valores;
  const base = cents(v.vServ) - cents(v.vDescIncond) - cents(v.vDR);
  const taxable = v.tribISSQN === '1' && v.pAliq !== undefined;
  const iss = taxable ? percentOf(base, cents(v.pAliq), 2) : 0n;
  const retained = (v.tpRetISSQN !== '1' ? iss : 0n) + cents(v.vRetCP) + cents(v.vRetIRRF) + cents(v.vRetCSLL);
  const liquid = cents(v.vServ) - cents(v.vDescIncond) - cents(v.vDescCond) - retained;
  return el('valores', [
    v.vDR !== undefined && leaf('vCalcDR', formatCents(cents(v.vDR))),
    taxable && leaf('vBC', formatCents(base)),
    taxable && leaf('pAliqAplic', v.pAliq!),
    taxable && leaf('vISSQN', formatCents(iss)),
    retained > 0n && leaf('vTotalRet', formatCents(retained)),
    leaf('vLiq', formatCents(liquid < 0n ? 0n : liquid)),
  ]);
}

function buildEmit(dps: DpsFacts, e: Emitente): XmlNode {
  return el('emit', [
    dps.prest.cnpj ? leaf('CNPJ', dps.prest.cnpj) : leaf('CPF', dps.prest.cpf ?? ''),
    opt('IM', dps.prest.im),
    leaf('xNome', e.xNome),
    el('enderNac', [leaf('xLgr', e.xLgr), leaf('nro', e.nro), opt('xCpl', e.xCpl), leaf('xBairro', e.xBairro), leaf('cMun', e.cMun), leaf('UF', e.uf), leaf('CEP', e.cep)]),
    opt('fone', dps.prest.fone),
    opt('email', dps.prest.email),
  ]);
}

export function buildInfNfse(i: NfseInput): { id: string; element: string; canonical: string } {
  const d = i.dps;
  const xLocEmi = place(d.cLocEmi) ?? d.cLocEmi;
  const xLocPrestacao = place(d.cLocPrestacao) ?? (d.cPaisPrestacao ? `Exterior (${d.cPaisPrestacao})` : xLocEmi);
  // LC 116/03 art. 3: the ISS is due where the provider is established, by default.
  const incid = d.valores.tribISSQN === '1' ? d.cLocEmi : undefined;
  const inner = [
    leaf('xLocEmi', xLocEmi),
    leaf('xLocPrestacao', xLocPrestacao),
    leaf('nNFSe', i.nNFSe),
    opt('cLocIncid', incid),
    incid !== undefined && leaf('xLocIncid', xLocEmi),
    leaf('xTribNac', tribNacDescription(d.cTribNac) ?? d.cTribNac),
    opt('xNBS', d.cNBS ? nbsDescription(d.cNBS) : undefined),
    leaf('verAplic', SIMULATOR_VER_APLIC),
    leaf('ambGer', 2),
    leaf('tpEmis', 1),
    leaf('procEmi', 1),
    leaf('cStat', 100),
    leaf('dhProc', i.dhProc),
    leaf('nDFSe', i.nDFSe),
    buildEmit(d, i.emitente),
    buildValoresNfse(d),
    trusted(i.dpsCanonical),
  ].filter(Boolean).join('');
  const id = `NFS${i.chaveAcesso}`;
  return { id, element: raw('infNFSe', inner, { Id: id }), canonical: raw('infNFSe', inner, { Id: id }, { xmlns: NFSE_NS }) };
}

export function assembleNfse(infNfseElement: string, signatureXml: string): string {
  return raw('NFSe', infNfseElement + signatureXml, { versao: NFSE_VERSION }, { xmlns: NFSE_NS });
}

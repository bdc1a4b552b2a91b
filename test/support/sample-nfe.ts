import { readFileSync } from 'node:fs';
import { buildAccessKey } from '../../lib/nfe/access-key.js';
import { signXml } from './xml-sign.js';
import { samplePath } from './samples.js';

/**
 * A signed NF-e for the authority tests, made from the IBS/CBS fixture (Java_NFe, enviNFe that
 * validates against PL_010): emitter CNPJ, number, series, cNF, date, environment and key are
 * rewritten for the test certificate, infRespTec is added (NT 2018.005), then it is signed.
 * Options break one thing at a time for the rejection tests.
 */
const FIXTURE = samplePath('nfe/ibscbs/enviNFe_IbsCbsRegular.xml');

export interface SampleOptions {
  cnpj: string;
  keyPem: string;
  certPem: string;
  numero: number;
  serie?: number;
  cNF?: string;
  /** Emission date (key AAMM comes from it). */
  at?: Date;
  tpAmb?: 1 | 2;
  /** Write a wrong check digit into Id and cDV (→ 502). */
  wrongCheckDigit?: boolean;
  withoutInfRespTec?: boolean;
  /** indIEDest 9 with indFinal 0 (→ 696). */
  nonContributorNotFinal?: boolean;
  /** Change a value after signing (→ 297). */
  tamperAfterSigning?: boolean;
  /** Break the schema (→ 225). */
  breakSchema?: boolean;
  /** Model of the key and `mod` (65 makes an NFC-e of the same content for the date rules). */
  model?: '55' | '65';
  /** tpEmis of the key and ide (contingency: 9 offline NFC-e, 6/7 SVC). */
  tpEmis?: 1 | 6 | 7 | 9;
  /**
   * ide/dhCont and xJust: by default written for a contingency tpEmis (entry = dhEmi) and not for a
   * normal one; null leaves them out, a value writes it whatever tpEmis (rules 556-558).
   */
  contingencyEntry?: { dhCont: string; xJust: string } | null;
  /** Another emitter UF than the fixture's SP: cUF of the key and ide, enderEmit/UF and cMun, cMunFG, IE. */
  emitter?: { cUF: string; uf: string; cMun: string; ie: string };
  /** Any other edit of the unsigned infNFe (the simulator's rejection tests break one field each). */
  edit?: (nfe: string) => string;
}

export interface SampleNfe {
  xml: string;
  accessKey: string;
}

export function sampleNfe(o: SampleOptions): SampleNfe {
  const raw = readFileSync(FIXTURE, 'utf8');
  let nfe = /<NFe\b[\s\S]*?<\/NFe>/.exec(raw)![0].replace(/<Signature\b[\s\S]*?<\/Signature>/, '');
  const at = o.at ?? new Date();
  const serie = o.serie ?? 1;
  const cNF = o.cNF ?? String(10_000_000 + (o.numero * 7919) % 89_999_999).slice(0, 8);
  const aamm = at.toISOString().slice(2, 4) + at.toISOString().slice(5, 7);
  let key = buildAccessKey({ cUF: o.emitter?.cUF ?? '35', aamm, document: o.cnpj, model: o.model ?? '55', serie, numero: o.numero, tpEmis: o.tpEmis ?? 1, cNF });
  if (o.wrongCheckDigit) key = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
  const dhEmi = new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 19) + '-03:00';
  const set = (tag: string, value: string) => { nfe = nfe.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), `<${tag}>${value}</${tag}>`); };
  nfe = nfe.replace(/Id="NFe\d{44}"/, `Id="NFe${key}"`);
  set('cNF', cNF); set('serie', String(serie)); set('nNF', String(o.numero)); set('dhEmi', dhEmi);
  set('cDV', key[43]!); set('tpAmb', String(o.tpAmb ?? 2)); set('mod', o.model ?? '55'); set('tpEmis', String(o.tpEmis ?? 1));
  const entry = o.contingencyEntry !== undefined ? o.contingencyEntry
    : (o.tpEmis ?? 1) !== 1 ? { dhCont: dhEmi, xJust: 'Falha de comunicacao com a SEFAZ autorizadora' } : null;
  if (entry) nfe = nfe.replace(/(<verProc>[^<]*<\/verProc>)/, `$1<dhCont>${entry.dhCont}</dhCont><xJust>${entry.xJust}</xJust>`);
  if (o.emitter) {
    const e = o.emitter;
    set('cUF', e.cUF); set('cMunFG', e.cMun);
    nfe = nfe.replace(/(<enderEmit>[\s\S]*?<cMun>)\d+(<\/cMun>[\s\S]*?<UF>)[A-Z]{2}(<\/UF>[\s\S]*?<\/enderEmit><IE>)\d+/, `$1${e.cMun}$2${e.uf}$3${e.ie}`);
  }
  nfe = nfe.replace(/<emit><CNPJ>\d{14}<\/CNPJ>/, `<emit><CNPJ>${o.cnpj}</CNPJ>`);
  if (o.nonContributorNotFinal) {
    nfe = nfe.replace(/<indFinal>1<\/indFinal>/, '<indFinal>0</indFinal>')
      .replace(/<indIEDest>1<\/indIEDest><IE>\d+<\/IE>/, '<indIEDest>9</indIEDest>');
  }
  if (!o.withoutInfRespTec) {
    nfe = nfe.replace('</infAdic></infNFe>', `</infAdic><infRespTec><CNPJ>${o.cnpj}</CNPJ><xContato>Equipe Fiscal</xContato><email>fiscal@example.com</email><fone>11999999999</fone></infRespTec></infNFe>`);
  }
  if (o.edit) nfe = o.edit(nfe);
  if (o.breakSchema) nfe = nfe.replace(/<natOp>[^<]*<\/natOp>/, '');
  let signed = signXml(nfe, `NFe${key}`, o.keyPem, o.certPem);
  if (o.tamperAfterSigning) signed = signed.replace(/<xNome>([^<]*)<\/xNome>/, '<xNome>$1 ALTERADO</xNome>');
  return { xml: signed, accessKey: key };
}

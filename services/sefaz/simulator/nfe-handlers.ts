import { validateXml } from '../../../lib/xml/xsd.js';
import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { verifyXmlSignature } from '../../../lib/sign/verify.js';
import { parseAccessKey, UF_BY_SIGLA } from '../../../lib/nfe/access-key.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { brasiliaDateTime, parseXml, text, child } from '../../../lib/sefaz/xml.js';
import { nfeFacts, rawElements } from '../../../lib/sefaz/simulator/facts.js';
import { checkNote, duplicateMotivo, schemaMotivo, withinCancelWindow } from '../../../lib/sefaz/simulator/rules.js';
import * as R from '../../../lib/sefaz/simulator/responses.js';
import type { SefazService } from '../../../lib/sefaz/services.js';
import type { SimulatorStore } from './store.js';

/**
 * The simulated NF-e 4.00 web services: each takes the nfeDadosMsg content and answers the
 * nfeResultMsg content, applying the authority's rules in its order (schema, signature, certificate,
 * key, business rules, database). Texts come verbatim from data/sefaz/cstat.json.
 */
export interface RequestInfo {
  /** CNPJ of the TLS client certificate. */
  clientCnpj: string | null;
  /** UF sigla from the path, when the URL names one. */
  uf: string | null;
  now: Date;
}

export type NfeHandler = (payload: string, req: RequestInfo) => Promise<string>;

const motivo = (cStat: number) => ({ cStat, xMotivo: cstatText(cStat) });
const peek = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;
function cufOf(payload: string, req: RequestInfo): string {
  return peek(payload, 'cUF') ?? (req.uf ? UF_BY_SIGLA[req.uf] : undefined) ?? '91';
}
const tpAmbOf = (payload: string) => (peek(payload, 'tpAmb') === '1' ? '1' : '2');

export function nfeHandlers(store: SimulatorStore, opts: { cancelWindowMs?: number } = {}): Record<SefazService, NfeHandler> {
  async function newProtocol(cUF: string, now: Date) {
    return R.protocolNumber(cUF, now, await store.nextSequence());
  }

  /** One NFe of an enviNFe → its protNFe (authorized or rejected). */
  async function authorizeOne(nfeRaw: string, req: RequestInfo, receipt: string): Promise<string> {
    const f = nfeFacts(nfeRaw);
    const chNFe = f.id.slice(3);
    const dhRecbto = brasiliaDateTime(req.now);
    const reject = (m: { cStat: number; xMotivo: string }) => R.protNFe({ ...m, tpAmb: f.tpAmb, chNFe, dhRecbto });
    const sig = verifyXmlSignature(nfeRaw, f.id);
    const broken = checkNote({ facts: f, signatureValid: sig.valid, clientCnpj: req.clientCnpj });
    if (broken) return reject(motivo(broken));
    const number = { cnpj: f.emitCnpj!, model: f.mod, serie: Number(f.serie), numero: Number(f.nNF), tp_amb: Number(f.tpAmb) };
    const protocol = await newProtocol(f.cUF, req.now);
    const m = f.dhEmi && req.now.getTime() - new Date(f.dhEmi).getTime() > 30 * 86_400_000 ? motivo(150) : motivo(100);
    const prot = R.protNFe({ ...m, tpAmb: f.tpAmb, chNFe, dhRecbto, nProt: protocol, digVal: f.digestValue });
    // The inutilização check and the insert under the series lock (see SimulatorStore.serialized).
    const outcome = await store.serialized(number, async (s) => {
      if (await s.isInutilizado(number)) return 'inutilizado' as const;
      return (await s.insertNote({ access_key: chNFe, ...number, c_uf: f.cUF, status: 'authorized', protocol, receipt, authorized_at: req.now, prot_xml: prot })) ? 'inserted' as const : 'duplicate' as const;
    });
    if (outcome === 'inutilizado') return reject(motivo(206));
    if (outcome === 'inserted') return prot;
    const sameKey = await store.noteByKey(chNFe);
    if (sameKey) return reject(duplicateMotivo({ kind: 'same-key', receipt: sameKey.receipt }, cstatText(204)));
    const sameNumber = await store.noteByNumber(number);
    if (!sameNumber) throw new Error('unique violation without a matching note');
    return reject(duplicateMotivo({ kind: 'same-number', accessKey: sameNumber.access_key, receipt: sameNumber.receipt }, cstatText(539)));
  }

  const NFeAutorizacao4: NfeHandler = async (payload, req) => {
    const head = { tpAmb: tpAmbOf(payload), cUF: cufOf(payload, req), dhRecbto: brasiliaDateTime(req.now) };
    // 404: the authorities refuse namespace prefixes in the data area (MOC 4.00 §4.2).
    if (/<[A-Za-z_][\w.-]*:[A-Za-z_]/.test(payload.replace(/<\/?(?:[\w.-]+:)?Signature[\s\S]*?<\/(?:[\w.-]+:)?Signature>/g, ''))) return R.retEnviNFe(head, motivo(404));
    const xsd = validateXml(NFE_SCHEMAS.enviNFe, payload);
    if (!xsd.valid) return R.retEnviNFe(head, { cStat: 225, xMotivo: schemaMotivo(cstatText(225), xsd.errors[0]) });
    const receipt = R.receiptNumber(head.cUF, await store.nextSequence());
    const nfe = rawElements(payload, 'NFe')[0]!;
    const prot = await authorizeOne(nfe, req, receipt);
    if (peek(payload, 'indSinc') === '1') return R.retEnviNFe(head, motivo(104), { prot });
    await store.saveReceipt({ receipt, c_uf: head.cUF, tp_amb: Number(head.tpAmb), prot_xml: prot, created_at: req.now });
    return R.retEnviNFe(head, motivo(103), { receipt });
  };

  const NFeRetAutorizacao4: NfeHandler = async (payload, req) => {
    const nRec = peek(payload, 'nRec') ?? '000000000000000';
    const head = { tpAmb: tpAmbOf(payload), cUF: cufOf(payload, req), dhRecbto: brasiliaDateTime(req.now), nRec };
    const xsd = validateXml(NFE_SCHEMAS.consReciNFe, payload);
    if (!xsd.valid) return R.retConsReciNFe(head, { cStat: 215, xMotivo: schemaMotivo(cstatText(215), xsd.errors[0]) });
    const row = await store.receipt(nRec);
    if (!row) return R.retConsReciNFe(head, motivo(106));
    return R.retConsReciNFe({ ...head, cUF: row.c_uf }, motivo(104), row.prot_xml);
  };

  const NFeConsultaProtocolo4: NfeHandler = async (payload, req) => {
    const chNFe = peek(payload, 'chNFe') ?? '0'.repeat(44);
    const head = { tpAmb: tpAmbOf(payload), cUF: chNFe.slice(0, 2), dhRecbto: brasiliaDateTime(req.now), chNFe };
    const xsd = validateXml(NFE_SCHEMAS.consSitNFe, payload);
    if (!xsd.valid) return R.retConsSitNFe({ ...head, cUF: cufOf(payload, req) }, { cStat: 215, xMotivo: schemaMotivo(cstatText(215), xsd.errors[0]) });
    if (!parseAccessKey(chNFe).ok) return R.retConsSitNFe(head, motivo(236));
    const note = await store.noteByKey(chNFe);
    if (!note || String(note.tp_amb) !== head.tpAmb) return R.retConsSitNFe(head, motivo(217));
    const procEventos = (await store.eventsOf(chNFe)).map((e) => e.proc_xml).filter((x): x is string => !!x);
    return R.retConsSitNFe(head, motivo(note.status === 'canceled' ? 101 : 100), note.prot_xml, procEventos);
  };

  const NFeStatusServico4: NfeHandler = async (payload, req) => {
    const head = { tpAmb: tpAmbOf(payload), cUF: cufOf(payload, req), dhRecbto: brasiliaDateTime(req.now) };
    const xsd = validateXml(NFE_SCHEMAS.consStatServ, payload);
    if (!xsd.valid) return R.retConsStatServ(head, { cStat: 215, xMotivo: schemaMotivo(cstatText(215), xsd.errors[0]) });
    return R.retConsStatServ(head, motivo(107)); // 'down' faults are answered by the server before this
  };

  const NFeRecepcaoEvento4: NfeHandler = async (payload, req) => {
    const tpAmb = tpAmbOf(payload);
    const cOrgao = peek(payload, 'cOrgao') ?? cufOf(payload, req);
    const batch = { idLote: peek(payload, 'idLote') ?? '0', tpAmb, cOrgao };
    const dhRegEvento = brasiliaDateTime(req.now);
    const generic = validateXml(NFE_SCHEMAS.envEvento, payload);
    if (!generic.valid) return R.retEnvEvento(batch, { cStat: 215, xMotivo: schemaMotivo(cstatText(215), generic.errors[0]) });
    const evento = rawElements(payload, 'evento')[0]!;
    const doc = parseXml(evento);
    const inf = child(doc, 'infEvento')!;
    const id = inf.getAttribute('Id') ?? '';
    const chNFe = text(inf, 'chNFe') ?? '';
    const tpEvento = text(inf, 'tpEvento') ?? '';
    const nSeq = text(inf, 'nSeqEvento') ?? '1';
    const cnpj = text(inf, 'CNPJ');
    const xEvento = tpEvento === '110111' ? 'Cancelamento registrado' : 'Carta de Correção registrada';
    const retOf = (cStat: number, nProt?: string): R.RetEventoInput => ({
      ...motivo(cStat), tpAmb, cOrgao, chNFe, tpEvento, nSeqEvento: nSeq, dhRegEvento, ...(nProt ? { nProt, xEvento } : {}),
    });
    const answer = (cStat: number, nProt?: string) => R.retEnvEvento(batch, motivo(128), retOf(cStat, nProt));
    const specific = tpEvento === '110111' ? NFE_SCHEMAS.envEventoCancNFe : tpEvento === '110110' ? NFE_SCHEMAS.envCCe : null;
    if (!specific || !validateXml(specific, payload).valid) return answer(493);
    if (!verifyXmlSignature(evento, id).valid) return answer(297);
    if (!req.clientCnpj || !cnpj || req.clientCnpj.slice(0, 8) !== cnpj.slice(0, 8)) return answer(213);
    if (id !== `ID${tpEvento}${chNFe}${nSeq.padStart(2, '0')}`) return answer(572);
    if (!parseAccessKey(chNFe).ok) return answer(236);
    const note = await store.noteByKey(chNFe);
    if (!note) return answer(494);
    if (note.cnpj !== cnpj) return answer(574);
    if (tpEvento === '110111') {
      if (note.status === 'canceled') return R.retEnvEvento(batch, motivo(128), {
        cStat: 218, xMotivo: cstatText(218).replace(/\[nRec:\d+\]/, `[nRec:${note.receipt}]`), tpAmb, cOrgao, chNFe, tpEvento, nSeqEvento: nSeq, dhRegEvento,
      });
      const nProtAsked = /<nProt>(\d+)<\/nProt>/.exec(evento)?.[1];
      if (nProtAsked !== note.protocol) return answer(222);
      if (!withinCancelWindow(new Date(note.authorized_at), req.now, opts.cancelWindowMs)) return answer(501);
    } else if (note.status !== 'authorized') {
      return answer(580);
    }
    const protocol = await newProtocol(chNFe.slice(0, 2), req.now);
    const procXml = R.procEventoNFe(evento, R.retEvento(retOf(135, protocol)));
    if (!(await store.insertEvent({ access_key: chNFe, tp_evento: tpEvento, n_seq: Number(nSeq), protocol, registered_at: req.now, proc_xml: procXml }))) return answer(573);
    if (tpEvento === '110111') await store.cancelNote(chNFe);
    return answer(135, protocol);
  };

  const NFeInutilizacao4: NfeHandler = async (payload, req) => {
    const base = { tpAmb: tpAmbOf(payload), cUF: cufOf(payload, req), dhRecbto: brasiliaDateTime(req.now) };
    const xsd = validateXml(NFE_SCHEMAS.inutNFe, payload);
    if (!xsd.valid) return R.retInutNFe({ ...base, cStat: 215, xMotivo: schemaMotivo(cstatText(215), xsd.errors[0]) });
    const doc = parseXml(payload);
    const inf = child(doc, 'infInut')!;
    const get = (n: string) => text(inf, n) ?? '';
    const fields = { ano: get('ano'), CNPJ: get('CNPJ'), mod: get('mod'), serie: get('serie'), nNFIni: get('nNFIni'), nNFFin: get('nNFFin') };
    const reject = (cStat: number) => R.retInutNFe({ ...base, ...motivo(cStat), ...fields });
    if (!verifyXmlSignature(payload, inf.getAttribute('Id') ?? '').valid) return reject(297);
    if (!req.clientCnpj || req.clientCnpj.slice(0, 8) !== fields.CNPJ.slice(0, 8)) return reject(213);
    const range = { cnpj: fields.CNPJ, model: fields.mod, serie: Number(fields.serie), inicio: Number(fields.nNFIni), fim: Number(fields.nNFFin), tp_amb: Number(base.tpAmb) };
    const protocol = await newProtocol(base.cUF, req.now);
    // Checks and insert under the series lock: overlapping requests cannot both be homologated.
    const refused = await store.serialized(range, async (s) => {
      if (await s.numbersUsed(range)) return 241;
      if (await s.rangeInutilizado(range)) return 256;
      await s.insertInutilizacao({ ...range, protocol, created_at: req.now });
      return undefined;
    });
    if (refused) return reject(refused);
    return R.retInutNFe({ ...base, ...motivo(102), ...fields, nProt: protocol });
  };

  return { NFeAutorizacao4, NFeRetAutorizacao4, NFeConsultaProtocolo4, NFeStatusServico4, NFeRecepcaoEvento4, NFeInutilizacao4 };
}

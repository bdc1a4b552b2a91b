import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { validateXml } from '../../../lib/xml/xsd.js';
import { parseAccessKey } from '../../../lib/nfe/access-key.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { brasiliaDateTime } from '../../../lib/sefaz/xml.js';
import { rawElements } from '../../../lib/sefaz/simulator/facts.js';
import { motivo, SIMULATOR_TP_AMB, type SimulatorCStat } from '../../../lib/sefaz/simulator/codes.js';
import { servesUf } from '../../../lib/sefaz/simulator/paths.js';
import { elementFields, messageFields, usesNamespacePrefix } from '../../../lib/sefaz/simulator/message.js';
import { cancellationCStat, ufRules } from '../../../lib/sefaz/simulator/uf-rules.js';
import { requestedRejection } from '../../../lib/sefaz/simulator/trigger.js';
import * as R from '../../../lib/sefaz/simulator/responses.js';
import { authorizerOf, schemaValid, siglaOf, tableText, type HandlerDeps, type NfeHandler } from './handler-context.js';

/**
 * NFeRecepcaoEvento4 for cancellation (110111) and correction letter (110110), in the authority's
 * order (MOC 4.00 §5 and Anexo I): prefixes (404), generic schema (215), specific schema (493), signature (297/298)
 * and its certificate (29x, 213), environment (252), authorizer (226), Id (572), key (236),
 * dates (577/578), the note (494, 574), duplicity (573 before 218), then the event's own rules
 * (222 and the UF's deadline for a cancellation: 135/155/220/501; 580 for a CC-e).
 */
const MINUTE = 60_000;

export function eventHandler(d: HandlerDeps): NfeHandler {
  const { store } = d;
  return async (msg, req) => {
    const f = messageFields(msg.doc, ['cOrgao', 'idLote']);
    const cOrgao = f.cOrgao && /^\d{2}$/.test(f.cOrgao) ? f.cOrgao : '91';
    const batch = { idLote: f.idLote && /^\d{1,15}$/.test(f.idLote) ? f.idLote : '0', tpAmb: SIMULATOR_TP_AMB, cOrgao };
    const dhRegEvento = brasiliaDateTime(req.now);
    if (usesNamespacePrefix(msg)) return R.retEnvEvento(batch, motivo(404));
    if (!schemaValid(d, NFE_SCHEMAS.envEvento, msg.doc, 'NFeRecepcaoEvento4', 215, req.now)) return R.retEnvEvento(batch, motivo(215));
    const evento = rawElements(msg.canonicalText, 'evento')[0]!;
    // Schema-valid: infEvento is there (the first of the batch is the one answered).
    const inf = elementFields(msg.doc, 'infEvento', ['chNFe', 'tpEvento', 'nSeqEvento', 'CNPJ', 'tpAmb', 'dhEvento', 'nProt', 'xJust', 'xCorrecao'])!;
    const id = inf.id;
    const get = (n: keyof typeof inf.fields) => inf.fields[n] ?? '';
    const chNFe = get('chNFe');
    const tpEvento = get('tpEvento');
    const nSeq = get('nSeqEvento') || '1';
    const cnpj = inf.fields.CNPJ;
    const retOf = (cStat: number, xMotivo: string, nProt?: string): R.RetEventoInput => ({
      cStat, xMotivo, tpAmb: SIMULATOR_TP_AMB, cOrgao, chNFe, tpEvento, nSeqEvento: nSeq, dhRegEvento, ...(nProt ? { nProt } : {}),
    });
    const answer = (cStat: SimulatorCStat) => R.retEnvEvento(batch, motivo(128), retOf(cStat, cstatText(cStat)));
    const specific = tpEvento === '110111' ? NFE_SCHEMAS.envEventoCancNFe : tpEvento === '110110' ? NFE_SCHEMAS.envCCe : null;
    if (!specific) return answer(493);
    const xsd = validateXml(specific, msg.doc);
    if (!xsd.valid) {
      d.rejections.record({ at: req.now.toISOString(), service: 'NFeRecepcaoEvento4', cStat: 493, id, details: xsd.errors.slice(0, 10) });
      return answer(493);
    }
    const sig = d.signatures.check(msg, id, req.now);
    if (sig.reason) d.rejections.record({ at: req.now.toISOString(), service: 'NFeRecepcaoEvento4', cStat: sig.signatureCStat ?? sig.signerCStat ?? 0, id, details: [sig.reason] });
    if (sig.signatureCStat) return answer(sig.signatureCStat);
    if (sig.signerCStat) return answer(sig.signerCStat);
    if (!sig.signerCnpj || !cnpj || sig.signerCnpj.slice(0, 8) !== cnpj.slice(0, 8)) return answer(213);
    if (get('tpAmb') !== SIMULATOR_TP_AMB) return answer(252);
    if (!servesUf(req.authorizers, cOrgao, req.model)) return answer(226);
    if (id !== `ID${tpEvento}${chNFe}${nSeq.padStart(2, '0')}`) return answer(572);
    if (!parseAccessKey(chNFe).ok) return answer(236);
    const note = await store.noteByKey(chNFe);
    const dhEvento = Date.parse(get('dhEvento'));
    if (note?.dh_emi && dhEvento < new Date(note.dh_emi).getTime()) return answer(577);
    if (dhEvento > req.now.getTime() + 5 * MINUTE) return answer(578);
    if (!note) return answer(494);
    if (note.cnpj !== cnpj) return answer(574);
    if (await store.eventExists(chNFe, tpEvento, Number(nSeq))) return answer(573);
    if (tpEvento === '110111') {
      if (note.status === 'canceled') {
        return R.retEnvEvento(batch, motivo(128), retOf(218, cstatText(218).replace(/\[nRec:\d+\]/, `[nRec:${note.receipt}]`)));
      }
      if (get('nProt') !== note.protocol) return answer(222);
    } else if (note.status !== 'authorized') {
      return answer(580);
    }
    const asked = requestedRejection(get('xJust') || get('xCorrecao'), get('tpAmb'), tableText, { nRec: note.receipt, chNFe });
    if (asked) return R.retEnvEvento(batch, motivo(128), retOf(asked.cStat, asked.xMotivo));
    const registered = tpEvento === '110111' ? cancellationCStat(new Date(note.authorized_at), req.now, ufRules(siglaOf(note.c_uf))) : 135;
    if (registered === 220 || registered === 501) return answer(registered);
    const protocol = R.protocolNumber(authorizerOf(req, cOrgao, note.model), cOrgao, req.now, await store.nextSequence());
    const ret = retOf(registered, cstatText(registered), protocol);
    const procXml = R.procEventoNFe(evento, R.retEvento(ret));
    if (!(await store.insertEvent({ access_key: chNFe, tp_evento: tpEvento, n_seq: Number(nSeq), protocol, registered_at: req.now, proc_xml: procXml }))) return answer(573);
    if (tpEvento === '110111') await store.cancelNote(chNFe);
    return R.retEnvEvento(batch, motivo(128), ret);
  };
}

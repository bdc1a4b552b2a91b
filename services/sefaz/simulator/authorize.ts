import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { brasiliaDateTime } from '../../../lib/sefaz/xml.js';
import { nfeFactsList, type NfeFacts } from '../../../lib/sefaz/simulator/facts.js';
import { authorizationCStat, checkNote, duplicateMotivo, withItem } from '../../../lib/sefaz/simulator/rules.js';
import { motivo, SIMULATOR_TP_AMB } from '../../../lib/sefaz/simulator/codes.js';
import { servesUf } from '../../../lib/sefaz/simulator/paths.js';
import { messageFields, usesNamespacePrefix, type ReceivedMessage } from '../../../lib/sefaz/simulator/message.js';
import { svcOf } from '../../../lib/sefaz/simulator/contingency.js';
import { ufRules } from '../../../lib/sefaz/simulator/uf-rules.js';
import { mayRequestRejection, requestedRejection } from '../../../lib/sefaz/simulator/trigger.js';
import * as R from '../../../lib/sefaz/simulator/responses.js';
import { N_PROT, type NoteAuthorization } from './store.js';
import { NoteAuthorizations } from './note-authorizations.js';
import { authorizerOf, schemaValid, siglaOf, tableText, type HandlerDeps, type NfeHandler, type RequestInfo } from './handler-context.js';

/**
 * NFeAutorizacao4 and NFeRetAutorizacao4: the batch (prefixes 404, schema 225), then each note by
 * the rules of lib/sefaz/simulator/rules.ts in the authority's order, then the database (206, 204,
 * 539) under the series lock. Texts verbatim from data/sefaz/cstat.json.
 */

export function authorizationHandlers(d: HandlerDeps): { NFeAutorizacao4: NfeHandler; NFeRetAutorizacao4: NfeHandler } {
  const { store } = d;
  // The authorizations that arrive while others are being written go together (note-authorizations.ts).
  const authorizations = new NoteAuthorizations(store);

  /** A protNFe refusing the note (no nProt, no digVal). */
  const refusal = (f: NfeFacts, req: RequestInfo, m: { cStat: number; xMotivo: string }) =>
    R.protNFe({ ...m, tpAmb: SIMULATOR_TP_AMB, chNFe: f.id.slice(3), dhRecbto: brasiliaDateTime(req.now) });

  /** Signature, certificate and every rule of the note, in the authority's order: its refusal, or null. */
  function refusalByRules(msg: ReceivedMessage, f: NfeFacts, req: RequestInfo): string | null {
    const sig = d.signatures.check(msg, f.id, req.now);
    if (sig.reason) d.rejections.record({ at: req.now.toISOString(), service: 'NFeAutorizacao4', cStat: sig.signatureCStat ?? sig.signerCStat ?? 0, id: f.id.slice(3), details: [sig.reason] });
    const rules = ufRules(siglaOf(f.cUF));
    const broken = checkNote({
      facts: f, ...sig, clientCnpj: req.clientCnpj, thirdPartyTransmitter: rules.thirdPartyTransmitter,
      infRespTecRequired: rules.infRespTecRequired, authorizerServesUf: servesUf(req.authorizers, f.cUF, req.model ?? (f.mod === '65' ? '65' : '55')), svc: svcOf(req.authorizers), now: req.now,
    });
    return broken ? refusal(f, req, { cStat: broken.cStat, xMotivo: withItem(cstatText(broken.cStat), broken.nItem) }) : null;
  }

  /**
   * The database step of a note that passed every rule (206, 204, 539, else authorized), in one
   * statement (shared with the authorizations written at the same time: note-authorizations.ts),
   * under the series lock.
   */
  async function recordNote(f: NfeFacts, req: RequestInfo, numbers: Pick<NoteAuthorization, 'receipt' | 'protocol' | 'saveReceipt'>): Promise<{ prot: string; receipt: string; receiptSaved: boolean }> {
    const chNFe = f.id.slice(3);
    const prot = R.protNFe({ ...motivo(authorizationCStat(f, req.now)), tpAmb: SIMULATOR_TP_AMB, chNFe, dhRecbto: brasiliaDateTime(req.now), nProt: N_PROT, digVal: f.digestValue });
    const o = await authorizations.authorize({
      ...numbers, prot,
      note: { access_key: chNFe, cnpj: f.emitCnpj!, model: f.mod, serie: Number(f.serie), numero: Number(f.nNF), tp_amb: Number(f.tpAmb), c_uf: f.cUF, authorized_at: req.now, dh_emi: new Date(f.dhEmi) },
    });
    if (o.outcome === 'inserted') return { prot: o.prot, receipt: o.receipt, receiptSaved: !!numbers.saveReceipt };
    const refused = (m: { cStat: number; xMotivo: string }) => ({ prot: refusal(f, req, m), receipt: o.receipt, receiptSaved: false });
    if (o.outcome === 'inutilizado') return refused(motivo(206));
    const { accessKey, receipt } = o.existing!;
    return refused(o.outcome === 'same-key'
      ? duplicateMotivo({ kind: 'same-key', receipt }, cstatText(204))
      : duplicateMotivo({ kind: 'same-number', accessKey, receipt }, cstatText(539)));
  }

  /** Any batch: its numbers drawn first (one round trip), then each note; a rejection on demand may name the receipt. */
  async function authorizeBatch(notes: NfeFacts[], refusals: (string | null)[], req: RequestInfo, cUF: string): Promise<{ prots: string[]; receipt: string }> {
    const [receiptSeq, ...protocolSeqs] = await store.nextSequences(notes.length + 1);
    const receipt = R.receiptNumber(cUF, receiptSeq!);
    const prots: string[] = [];
    for (const [i, f] of notes.entries()) {
      const refused = refusals[i];
      if (refused) { prots.push(refused); continue; }
      const firstItem = [...f.itemsWithoutIcmsUfDest, ...f.itemsWithIcmsUfDest].sort((a, b) => Number(a) - Number(b))[0];
      const asked = requestedRejection(f.additionalInfo, f.tpAmb, tableText, { nRec: receipt, chNFe: f.id.slice(3), nItem: firstItem });
      if (asked) { prots.push(refusal(f, req, asked)); continue; }
      const protocol = R.protocolNumber(authorizerOf(req, f.cUF, f.mod), f.cUF, req.now, protocolSeqs[i]!);
      prots.push((await recordNote(f, req, { receipt, protocol })).prot);
    }
    return { prots, receipt };
  }

  const NFeAutorizacao4: NfeHandler = async (msg, req) => {
    // Every check below reads the one parsed message (the hot path of the simulator: issue 18).
    const { doc } = msg;
    const f = messageFields(doc, ['cUF', 'indSinc']);
    const head = { tpAmb: SIMULATOR_TP_AMB, cUF: f.cUF && /^\d{2}$/.test(f.cUF) ? f.cUF : '91', dhRecbto: brasiliaDateTime(req.now) };
    // 404: the authorities refuse namespace prefixes in the data area (MOC 4.00 §4.2).
    if (usesNamespacePrefix(msg)) return R.retEnviNFe(head, motivo(404));
    if (!schemaValid(d, NFE_SCHEMAS.enviNFe, doc, 'NFeAutorizacao4', 225, req.now)) return R.retEnviNFe(head, motivo(225));
    const sync = f.indSinc === '1';
    const notes = nfeFactsList(doc);
    const refusals = notes.map((n) => refusalByRules(msg, n, req));
    const only = notes.length === 1 && !refusals[0] ? notes[0]! : null;
    let prots: string[];
    let receipt: string;
    let receiptSaved = false;
    if (only && !mayRequestRejection(only.additionalInfo, only.tpAmb)) {
      // The common case, one note that passed every rule: its receipt and protocol are drawn, and an
      // asynchronous batch's receipt written, by the same single statement as the note.
      const r = await recordNote(only, req, {
        receipt: R.receiptFormat(head.cUF), protocol: R.protocolFormat(authorizerOf(req, only.cUF, only.mod), only.cUF, req.now),
        saveReceipt: sync ? undefined : { c_uf: head.cUF, tp_amb: Number(SIMULATOR_TP_AMB) },
      });
      ({ receipt, receiptSaved } = r);
      prots = [r.prot];
    } else {
      ({ prots, receipt } = await authorizeBatch(notes, refusals, req, head.cUF));
    }
    if (sync) return R.retEnviNFe(head, motivo(104), { prot: prots.join('') });
    if (!receiptSaved) await store.saveReceipt({ receipt, c_uf: head.cUF, tp_amb: Number(SIMULATOR_TP_AMB), prot_xml: prots.join(''), created_at: req.now });
    return R.retEnviNFe(head, motivo(103), { receipt });
  };

  const NFeRetAutorizacao4: NfeHandler = async (msg, req) => {
    const f = messageFields(msg.doc, ['tpAmb', 'nRec']);
    const nRec = f.nRec && /^\d{15}$/.test(f.nRec) ? f.nRec : '0'.repeat(15);
    const head = { tpAmb: SIMULATOR_TP_AMB, cUF: nRec.slice(0, 2), dhRecbto: brasiliaDateTime(req.now), nRec };
    if (usesNamespacePrefix(msg)) return R.retConsReciNFe(head, motivo(404));
    if (!schemaValid(d, NFE_SCHEMAS.consReciNFe, msg.doc, 'NFeRetAutorizacao4', 215, req.now)) return R.retConsReciNFe(head, motivo(215));
    if (f.tpAmb !== SIMULATOR_TP_AMB) return R.retConsReciNFe(head, motivo(252));
    const row = await store.receipt(nRec);
    if (!row) return R.retConsReciNFe(head, motivo(106));
    return R.retConsReciNFe({ ...head, cUF: row.c_uf }, motivo(104), row.prot_xml);
  };

  return { NFeAutorizacao4, NFeRetAutorizacao4 };
}

import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { brasiliaDateTime } from '../../../lib/sefaz/xml.js';
import { motivo, SIMULATOR_TP_AMB, type SimulatorCStat } from '../../../lib/sefaz/simulator/codes.js';
import { servesUf } from '../../../lib/sefaz/simulator/paths.js';
import { elementFields, messageFields, usesNamespacePrefix } from '../../../lib/sefaz/simulator/message.js';
import { requestedRejection } from '../../../lib/sefaz/simulator/trigger.js';
import * as R from '../../../lib/sefaz/simulator/responses.js';
import { authorizerOf, schemaValid, tableText, type HandlerDeps, type NfeHandler } from './handler-context.js';

/**
 * NFeInutilizacao4 (MOC 4.00 §4.6): prefixes (404), schema (215), signature and certificate (297/298, 29x, 213),
 * environment (252), authorizer (226), range (224), then the database under the series lock
 * (241 a number used, 256 already inutilizado).
 */
export function inutilizacaoHandler(d: HandlerDeps): NfeHandler {
  const { store } = d;
  return async (msg, req) => {
    const peeked = messageFields(msg.doc, ['cUF']).cUF;
    const cUF = peeked && /^\d{2}$/.test(peeked) ? peeked : '91';
    const base = { tpAmb: SIMULATOR_TP_AMB, cUF, dhRecbto: brasiliaDateTime(req.now) };
    if (usesNamespacePrefix(msg)) return R.retInutNFe({ ...base, ...motivo(404) });
    if (!schemaValid(d, NFE_SCHEMAS.inutNFe, msg.doc, 'NFeInutilizacao4', 215, req.now)) return R.retInutNFe({ ...base, ...motivo(215) });
    // Schema-valid: infInut is there.
    const inf = elementFields(msg.doc, 'infInut', ['ano', 'CNPJ', 'mod', 'serie', 'nNFIni', 'nNFFin', 'tpAmb', 'xJust'])!;
    const get = (n: keyof typeof inf.fields) => inf.fields[n] ?? '';
    const id = inf.id;
    const fields = { ano: get('ano'), CNPJ: get('CNPJ'), mod: get('mod'), serie: get('serie'), nNFIni: get('nNFIni'), nNFFin: get('nNFFin') };
    const reject = (cStat: number, xMotivo = cstatText(cStat)) => R.retInutNFe({ ...base, cStat, xMotivo, ...fields });
    const sig = d.signatures.check(msg, id, req.now);
    if (sig.reason) d.rejections.record({ at: req.now.toISOString(), service: 'NFeInutilizacao4', cStat: sig.signatureCStat ?? sig.signerCStat ?? 0, id, details: [sig.reason] });
    const broken: SimulatorCStat | null = sig.signatureCStat ?? sig.signerCStat
      ?? (!sig.signerCnpj || sig.signerCnpj.slice(0, 8) !== fields.CNPJ.slice(0, 8) ? 213 : null)
      ?? (get('tpAmb') !== SIMULATOR_TP_AMB ? 252 : null)
      ?? (!servesUf(req.authorizers, cUF, req.model ?? (fields.mod === '65' ? '65' : '55')) ? 226 : null)
      ?? (Number(fields.nNFIni) > Number(fields.nNFFin) ? 224 : null);
    if (broken) return reject(broken);
    const asked = requestedRejection(get('xJust'), get('tpAmb'), tableText);
    if (asked) return reject(asked.cStat, asked.xMotivo);
    const range = { cnpj: fields.CNPJ, model: fields.mod, serie: Number(fields.serie), inicio: Number(fields.nNFIni), fim: Number(fields.nNFFin), tp_amb: Number(SIMULATOR_TP_AMB) };
    const protocol = R.protocolNumber(authorizerOf(req, cUF, fields.mod), cUF, req.now, await store.nextSequence());
    // Checks and insert under the series lock: overlapping requests cannot both be homologated.
    const refused = await store.serialized(range, async (s) => {
      if (await s.numbersUsed(range)) return 241 as const;
      if (await s.rangeInutilizado(range)) return 256 as const;
      await s.insertInutilizacao({ ...range, protocol, created_at: req.now });
      return undefined;
    });
    if (refused) return reject(refused);
    return R.retInutNFe({ ...base, ...motivo(102), ...fields, nProt: protocol });
  };
}

import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { parseAccessKey } from '../../../lib/nfe/access-key.js';
import { brasiliaDateTime } from '../../../lib/sefaz/xml.js';
import { motivo, SIMULATOR_TP_AMB } from '../../../lib/sefaz/simulator/codes.js';
import { servesUf } from '../../../lib/sefaz/simulator/paths.js';
import { messageFields, usesNamespacePrefix } from '../../../lib/sefaz/simulator/message.js';
import * as R from '../../../lib/sefaz/simulator/responses.js';
import type { SefazService } from '../../../lib/sefaz/services.js';
import { authorizationHandlers } from './authorize.js';
import { eventHandler } from './events.js';
import { inutilizacaoHandler } from './inutilizacao.js';
import { schemaValid, type HandlerDeps, type NfeHandler } from './handler-context.js';

export type { RequestInfo, NfeHandler, HandlerDeps } from './handler-context.js';

/**
 * The simulated NF-e 4.00 web services: each takes the nfeDadosMsg content and answers the
 * nfeResultMsg content, applying the authority's rules in its order (prefixes 404, schema, signature, certificate,
 * environment, authorizer, key, business rules, database). Texts come verbatim from
 * data/sefaz/cstat.json; tpAmb of every answer is the simulator's (2), never the request's.
 */
export function nfeHandlers(d: HandlerDeps): Record<SefazService, NfeHandler> {
  const { store } = d;

  const NFeConsultaProtocolo4: NfeHandler = async (msg, req) => {
    const f = messageFields(msg.doc, ['tpAmb', 'chNFe']);
    const chNFe = f.chNFe && /^\d{44}$/.test(f.chNFe) ? f.chNFe : '0'.repeat(44);
    const head = { tpAmb: SIMULATOR_TP_AMB, cUF: chNFe.slice(0, 2), dhRecbto: brasiliaDateTime(req.now), chNFe };
    if (usesNamespacePrefix(msg)) return R.retConsSitNFe(head, motivo(404));
    if (!schemaValid(d, NFE_SCHEMAS.consSitNFe, msg.doc, 'NFeConsultaProtocolo4', 215, req.now)) return R.retConsSitNFe(head, motivo(215));
    if (f.tpAmb !== SIMULATOR_TP_AMB) return R.retConsSitNFe(head, motivo(252));
    if (!parseAccessKey(chNFe).ok) return R.retConsSitNFe(head, motivo(236));
    if (!servesUf(req.authorizers, chNFe.slice(0, 2), req.model)) return R.retConsSitNFe(head, motivo(226));
    const note = await store.noteByKey(chNFe);
    if (!note) return R.retConsSitNFe(head, motivo(217));
    const procEventos = (await store.eventsOf(chNFe)).map((e) => e.proc_xml).filter((x): x is string => !!x);
    return R.retConsSitNFe(head, motivo(note.status === 'canceled' ? 101 : 100), note.prot_xml, procEventos);
  };

  const NFeStatusServico4: NfeHandler = async (msg, req) => {
    const f = messageFields(msg.doc, ['tpAmb', 'cUF']);
    const cUF = f.cUF && /^\d{2}$/.test(f.cUF) ? f.cUF : '91';
    const head = { tpAmb: SIMULATOR_TP_AMB, cUF, dhRecbto: brasiliaDateTime(req.now) };
    if (usesNamespacePrefix(msg)) return R.retConsStatServ(head, motivo(404));
    if (!schemaValid(d, NFE_SCHEMAS.consStatServ, msg.doc, 'NFeStatusServico4', 215, req.now)) return R.retConsStatServ(head, motivo(215));
    if (f.tpAmb !== SIMULATOR_TP_AMB) return R.retConsStatServ(head, motivo(252));
    if (!servesUf(req.authorizers, cUF, req.model)) return R.retConsStatServ(head, motivo(289));
    return R.retConsStatServ(head, motivo(107)); // 'down' faults are answered by the server before this
  };

  return {
    ...authorizationHandlers(d),
    NFeConsultaProtocolo4,
    NFeStatusServico4,
    NFeRecepcaoEvento4: eventHandler(d),
    NFeInutilizacao4: inutilizacaoHandler(d),
  };
}

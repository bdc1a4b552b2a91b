import type { SefazService } from '../services.js';
import type { Motivo } from './codes.js';
import { SIMULATOR_TP_AMB } from './codes.js';
import * as R from './responses.js';

/**
 * A message refused as a whole (214 too large, 215/225 schema, 252 environment, 289 UF): the
 * service's ret* with only the header the layout requires. Fields the layout needs back (nRec,
 * chNFe, idLote) are peeked from the message when it has them; the message may be invalid, so a
 * missing one is written as the layout's neutral value.
 */
const peek = (xml: string, tag: string, shape: RegExp) => {
  const v = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
  return v && shape.test(v) ? v : null;
};

export function refuseMessage(service: SefazService, payload: string, m: Motivo, at: { cUF: string; dhRecbto: string }): string {
  const head = { tpAmb: SIMULATOR_TP_AMB, cUF: at.cUF, dhRecbto: at.dhRecbto };
  switch (service) {
    case 'NFeAutorizacao4': return R.retEnviNFe(head, m);
    case 'NFeRetAutorizacao4': return R.retConsReciNFe({ ...head, nRec: peek(payload, 'nRec', /^\d{15}$/) ?? '0'.repeat(15) }, m);
    case 'NFeConsultaProtocolo4': return R.retConsSitNFe({ ...head, chNFe: peek(payload, 'chNFe', /^\d{44}$/) ?? '0'.repeat(44) }, m);
    case 'NFeStatusServico4': return R.retConsStatServ(head, m);
    case 'NFeRecepcaoEvento4': return R.retEnvEvento({ idLote: peek(payload, 'idLote', /^\d{1,15}$/) ?? '0', tpAmb: SIMULATOR_TP_AMB, cOrgao: at.cUF }, m);
    case 'NFeInutilizacao4': return R.retInutNFe({ ...head, ...m });
  }
}

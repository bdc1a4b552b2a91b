import type { X509Certificate } from 'node:crypto';
import { municipality } from '../../../../lib/issuer/municipalities.js';
import type { DpsFacts } from '../../../../lib/sefin/simulator/dps-facts.js';
import type { Emitente } from '../../../../lib/sefin/simulator/nfse-xml.js';

/**
 * The issuer as the NFS-e names it. Sefin takes name and address from its registers (CNPJ, CNC);
 * the simulator has none, so it uses what the DPS carries (xNome, end when the DPS has them), the
 * name in the signer certificate (ICP-Brasil CN "RAZAO SOCIAL:CNPJ") and, without an address, one
 * that says so in the municipality of issue.
 */
export function emitenteOf(dps: DpsFacts, signer: X509Certificate): Emitente {
  const cn = /CN=([^\n]+)/.exec(signer.subject)?.[1] ?? '';
  const xNome = dps.prest.xNome ?? (cn.replace(/:\d{11,14}$/, '').trim() || 'NOME NAO CADASTRADO NO SIMULADOR');
  const uf = municipality(dps.cLocEmi)?.uf ?? 'SP';
  const end = dps.prest.end;
  if (end && end.cMun === dps.cLocEmi && end.cep) {
    return { xNome, xLgr: end.xLgr, nro: end.nro, xCpl: end.xCpl, xBairro: end.xBairro, cMun: dps.cLocEmi, uf, cep: end.cep };
  }
  return { xNome, xLgr: 'ENDERECO NAO CADASTRADO NO SIMULADOR', nro: 'S/N', xBairro: 'NAO CADASTRADO', cMun: dps.cLocEmi, uf, cep: '00000000' };
}

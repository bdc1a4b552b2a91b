import { readSample } from './samples.js';

/**
 * The fixed NFS-e of the DANFSe tests and golden images. The real one is the homologation NFS-e
 * Sefin Nacional issued in Pacajá (test/fixtures/samples/nfse). The full one is the fictitious
 * 1.01 sample given an intermediary, discounts, ISS withheld by the taker, federal withholdings
 * and PIS/COFINS of the provider's own calculation, with Sefin's values recomputed to match:
 * base 1 500.00 − 30.00 = 1 470.00, ISS 2 % = 29.40, retentions 29.40 + 165.00 + 22.50 + 15.00 =
 * 231.90, net 1 500.00 − 30.00 − 20.00 − 231.90 = 1 218.10. Its signatures no longer verify; the
 * DANFSe does not check them (Sefin's XML is trusted where it is stored).
 */
export const realNfse = (): string => readSample('nfse/NFSe_v1.00_sefin_hom_1505486.xml');

export const fictitiousNfse = (): string => readSample('nfse/NFSe_v1.01_ibscbs_ficticia_sped-da.xml');

const INTERM = '<interm><CNPJ>11444777000161</CNPJ><IM>987654</IM><xNome>BETA INTERMEDIACAO DE SERVICOS LTDA</xNome>'
  + '<end><endNac><cMun>3304557</cMun><CEP>20040020</CEP></endNac><xLgr>AVENIDA RIO BRANCO</xLgr><nro>156</nro><xCpl>SALA 1201</xCpl><xBairro>CENTRO</xBairro></end>'
  + '<fone>2133334444</fone><email>fiscal@beta.example.com</email></interm>';

const TRIB_FED = '<tribFed><piscofins><CST>01</CST><vBCPisCofins>1470.00</vBCPisCofins><pAliqPis>0.65</pAliqPis><pAliqCofins>3.00</pAliqCofins>'
  + '<vPis>9.56</vPis><vCofins>44.10</vCofins><tpRetPisCofins>8</tpRetPisCofins></piscofins>'
  + '<vRetCP>165.00</vRetCP><vRetIRRF>22.50</vRetIRRF><vRetCSLL>15.00</vRetCSLL></tribFed>';

const DESCRICAO = 'Licenciamento e suporte mensal do sistema de gestão - competência 09/2026: manutenção corretiva e evolutiva, '
  + 'atendimento em horário comercial por telefone e e-mail, hospedagem do ambiente de produção e de homologação, cópias de segurança diárias '
  + 'com retenção de trinta dias e relatório mensal de disponibilidade, conforme o contrato 2026/001 e seu anexo de níveis de serviço.';

export function fullNfse(): string {
  // Whitespace between tags dropped first, so each change below matches one exact run of elements.
  return fictitiousNfse().replace(/>\s+</g, '><')
    .replace('<email>fulano@example.com</email></toma>', `<fone>11988887777</fone><email>fulano@example.com</email></toma>${INTERM}`)
    .replace(/<xDescServ>[^<]*<\/xDescServ>/, `<xDescServ>${DESCRICAO}</xDescServ>`)
    .replace('<xInfComp>Contrato fictício 2026/001</xInfComp>', '<xInfComp>Contrato fictício 2026/001. ISS retido pelo tomador conforme a legislação municipal; INSS retido de 11 %.</xInfComp>')
    .replace('</vServPrest>', '</vServPrest><vDescCondIncond><vDescIncond>30.00</vDescIncond><vDescCond>20.00</vDescCond></vDescCondIncond>')
    .replace(/<tribMun><tribISSQN>1<\/tribISSQN><tpRetISSQN>1<\/tpRetISSQN><\/tribMun>/, `<tribMun><tribISSQN>1</tribISSQN><tpRetISSQN>2</tpRetISSQN><pAliq>2.00</pAliq></tribMun>${TRIB_FED}`)
    .replace(/<valores><vBC>1500\.00<\/vBC><pAliqAplic>2\.00<\/pAliqAplic><vISSQN>30\.00<\/vISSQN><vTotalRet>0\.00<\/vTotalRet><vLiq>1500\.00<\/vLiq><\/valores>/,
      '<valores><vBC>1470.00</vBC><pAliqAplic>2.00</pAliqAplic><vISSQN>29.40</vISSQN><vTotalRet>231.90</vTotalRet><vLiq>1218.10</vLiq></valores>');
}

import type { FieldHints } from '../validation/field-errors.js';

/**
 * `motivo` of unknown keys of POST /v1/nfse that exist in the DPS layout 1.01 under another name
 * here, or as a group this API does not support (API.md, Errors > Unknown fields). Read by
 * lib/validation/field-errors.ts (`objeto.campo`, then the bare `campo`).
 */
const renamed = (to: string) => `No leiaute existe com outro nome: nesta API use '${to}'.`;
const unsupported = (what: string) => `Grupo/campo do leiaute não suportado por esta API: ${what}.`;
const computed = (what: string) => `Campo calculado ou definido pelo serviço, não enviado: ${what}.`;

export const NFSE_FIELD_HINTS: FieldHints = {
  numero: computed('o número da DPS (nDPS) é alocado pelo serviço por emissor e série'),
  nDPS: computed('o número da DPS (nDPS) é alocado pelo serviço por emissor e série'),
  Id: computed('identificador da DPS'),
  dhEmi: computed('data e hora de emissão'),
  tpAmb: computed('o ambiente vem do cadastro do emissor (ambienteFiscal)'),
  verAplic: computed('versão do aplicativo emissor'),
  tpEmit: computed('a DPS é emitida pelo prestador (tpEmit 1)'),
  cLocEmi: computed('município do emissor vem do cadastro'),
  dCompet: renamed('competencia'),
  prest: computed('o prestador vem do cadastro do emissor (issuerId)'),
  prestador: computed('o prestador vem do cadastro do emissor (issuerId)'),
  toma: renamed('tomador'),
  serv: renamed('servico'),
  valores: renamed('servico (valores) e retencoes'),
  IBSCBS: renamed('ibsCbs'),
  interm: unsupported('intermediário (interm)'),
  intermediario: unsupported('intermediário (interm)'),
  subst: unsupported('substituição de NFS-e (subst)'),
  regTrib: renamed('dpsNacional (opSimpNac, regApTribSN, regEspTrib)'),
  opSimpNac: renamed('dpsNacional.opSimpNac'),
  regApTribSN: renamed('dpsNacional.regApTribSN'),
  regEspTrib: renamed('dpsNacional.regEspTrib'),
  cTribNac: renamed('dpsNacional.cTribNac'),
  tribISSQN: renamed('dpsNacional.tribISSQN'),
  tpRetISSQN: renamed('dpsNacional.tpRetISSQN'),
  pTotTribSN: renamed('dpsNacional.pTotTribSN'),
  'tomador.CNPJ': renamed('tomador.cnpjCpf'),
  'tomador.CPF': renamed('tomador.cnpjCpf'),
  'tomador.xNome': renamed('tomador.razaoSocial'),
  'tomador.IM': renamed('tomador.inscricaoMunicipal'),
  'tomador.NIF': unsupported('tomador estrangeiro (NIF)'),
  'tomador.endereco.endExt': unsupported('endereço no exterior (endExt)'),
  'servico.xDescServ': renamed('servico.discriminacao'),
  'servico.cNBS': renamed('servico.codigoNBS'),
  'servico.vServ': renamed('servico.valorServicos'),
  'servico.pAliq': renamed('servico.aliquotaIss'),
  'servico.comExt': unsupported('comércio exterior (comExt)'),
  'servico.obra': unsupported('obra (obra)'),
  'servico.atvEvento': unsupported('atividade de evento (atvEvento)'),
  'retencoes.vRetCP': renamed('retencoes.inss'),
  'retencoes.vRetIRRF': renamed('retencoes.irrf'),
  'retencoes.vRetCSLL': renamed('retencoes.csll'),
  'ibsCbs.CST': renamed('ibsCbs.cst'),
  'ibsCbs.dest': unsupported('destinatário do IBS/CBS diferente do tomador (dest)'),
  'ibsCbs.imovel': unsupported('bem imóvel (imovel)'),
  'ibsCbs.gRefNFSe': unsupported('NFS-e referenciadas (gRefNFSe)'),
  'ibsCbs.gReeRepRes': unsupported('reembolso, repasse ou ressarcimento (gReeRepRes)'),
};

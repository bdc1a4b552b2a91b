import type { FieldHints } from '../validation/field-errors.js';

/**
 * `motivo` of unknown keys that exist in the NF-e/NFC-e layout 4.00 (MOC 4.00 + NT 2025.002),
 * either under another name in this API or as a group the product does not support (API.md,
 * Errors > Unknown fields). Keys are read by lib/validation/field-errors.ts: `objeto.campo` with
 * array indexes removed (`items[].icms.vBCSTRet`), then the bare `campo` (used for names that mean
 * the same wherever they appear). Without an entry the name is wrong or non-existent.
 */
const renamed = (to: string) => `No leiaute existe com outro nome: nesta API use '${to}'.`;
const unsupported = (what: string) => `Grupo/campo do leiaute não suportado por esta API: ${what}.`;
const flattened = (what: string) => `No leiaute é um grupo; nesta API ${what}.`;
const computed = (what: string) => `Campo calculado ou definido pelo serviço, não enviado: ${what}.`;

const ROOT: Record<string, string> = {
  // ide (B)
  natOp: renamed('naturezaOperacao'),
  nNF: renamed('numero'),
  mod: computed('o modelo é definido pela rota (/v1/nfe = 55, /v1/nfce = 65)'),
  modelo: computed('o modelo é definido pela rota (/v1/nfe = 55, /v1/nfce = 65)'),
  cNF: computed('código numérico gerado pelo serviço'),
  cDV: computed('dígito da chave de acesso'),
  chave: computed('chave de acesso gerada pelo serviço'),
  chaveAcesso: computed('chave de acesso gerada pelo serviço; para referenciar use referenciadas[].chaveAcesso'),
  dhEmi: computed('data e hora de emissão'),
  dhSaiEnt: renamed('dataSaidaEntrada'),
  tpAmb: computed('o ambiente vem do cadastro do emissor (ambienteFiscal)'),
  tpEmis: computed('a forma de emissão é decidida pelo serviço (contingência)'),
  tpImp: computed('formato do DANFE'),
  cUF: computed('UF do emissor vem do cadastro'),
  cMunFG: computed('município do fato gerador vem do cadastro do emissor'),
  procEmi: computed('processo de emissão'),
  verProc: computed('versão do aplicativo emissor'),
  dhCont: computed('data da entrada em contingência'),
  xJust: renamed('justificativaContingencia (NFC-e)'),
  NFref: renamed('referenciadas[].chaveAcesso'),
  refNFe: renamed('referenciadas[].chaveAcesso'),
  refNFeSig: renamed('referenciadas[].chaveAcesso'),
  refNF: unsupported('referência a NF modelo 1/1A (refNF); só referenciadas[].chaveAcesso'),
  refNFP: unsupported('referência a NF de produtor rural (refNFP); só referenciadas[].chaveAcesso'),
  refCTe: unsupported('referência a CT-e (refCTe); só referenciadas[].chaveAcesso'),
  refECF: unsupported('referência a cupom fiscal ECF (refECF); só referenciadas[].chaveAcesso'),
  referenciada: renamed('referenciadas[].chaveAcesso'),
  documentosReferenciados: renamed('referenciadas[].chaveAcesso'),
  // Groups A-Z of infNFe
  emit: computed('o emitente vem do cadastro do emissor (issuerId)'),
  emitente: computed('o emitente vem do cadastro do emissor (issuerId)'),
  avulsa: unsupported('nota avulsa (avulsa)'),
  dest: renamed('destinatario'),
  destinatário: renamed('destinatario'),
  retirada: unsupported('local de retirada (retirada)'),
  entrega: unsupported('local de entrega (entrega)'),
  autXML: unsupported('autorizados a obter o XML (autXML)'),
  itens: renamed('items'),
  item: renamed('items'),
  det: renamed('items'),
  produtos: renamed('items'),
  total: computed('totais são calculados a partir dos itens, nunca enviados'),
  totais: computed('totais são calculados a partir dos itens, nunca enviados'),
  ICMSTot: computed('totais são calculados a partir dos itens, nunca enviados'),
  ISSQNtot: unsupported('ISSQN em NF-e (ISSQNtot)'),
  retTrib: unsupported('retenção de tributos (retTrib)'),
  IBSCBSTot: computed('totais de IBS/CBS são calculados a partir dos itens'),
  vNF: computed('o total da nota é calculado a partir dos itens'),
  valorTotalNota: computed('o total da nota é calculado a partir dos itens'),
  transp: renamed('transporte'),
  cobr: renamed('cobranca'),
  cobrança: renamed('cobranca'),
  pag: renamed('pagamentos'),
  pagamento: renamed('pagamentos'),
  detPag: renamed('pagamentos'),
  vTroco: renamed('troco'),
  infIntermed: unsupported('intermediador da transação (infIntermed); use indIntermed'),
  infAdic: renamed('informacoesComplementares'),
  infCpl: renamed('informacoesComplementares'),
  infAdFisco: renamed('informacoesFisco'),
  obsCont: unsupported('observações do contribuinte (obsCont)'),
  obsFisco: unsupported('observações do fisco (obsFisco)'),
  procRef: renamed('processosReferenciados'),
  exporta: unsupported('exportação (exporta)'),
  compra: unsupported('informações de compra (compra)'),
  cana: unsupported('cana-de-açúcar (cana)'),
  infRespTec: computed('responsável técnico informado pelo serviço'),
  infSolicNFF: unsupported('NFF (infSolicNFF)'),
  agropecuario: unsupported('produtos agropecuários (agropecuario)'),
  gCompraGov: unsupported('compras governamentais (gCompraGov)'),
  gPagAntecipado: unsupported('pagamento antecipado (gPagAntecipado)'),
  // Commonly mistyped API names
  indicadorPresenca: renamed('indPres'),
  finalidade: renamed('finNFe'),
  tipoOperacao: renamed('tpNF'),
  consumidorFinal: renamed('indFinal'),
  destinoOperacao: renamed('idDest'),
  emitterId: renamed('issuerId'),
  empresaId: renamed('issuerId'),
};

/** Item (H/I) and tax (M-W) level names; the item path is `items[]`. */
const ITEM: Record<string, string> = {
  nItem: computed('número do item (posição na lista items)'),
  prod: flattened('os campos do produto ficam diretamente no item'),
  imposto: flattened('icms, ipi, pis, cofins e ibsCbs ficam diretamente no item'),
  cProd: renamed('codigo'),
  xProd: renamed('descricao'),
  cEAN: renamed('ean'),
  gtin: renamed('ean'),
  NCM: renamed('ncm'),
  NVE: unsupported('NVE'),
  CEST: renamed('cest'),
  indEscala: unsupported('indicador de escala relevante (indEscala)'),
  CNPJFab: unsupported('CNPJ do fabricante (CNPJFab)'),
  EXTIPI: unsupported('EX da TIPI (EXTIPI)'),
  CFOP: renamed('cfop'),
  uCom: renamed('unidade'),
  qCom: renamed('quantidade'),
  vUnCom: renamed('valorUnitario'),
  vProd: renamed('valorTotal'),
  cEANTrib: renamed('eanTributavel'),
  uTrib: renamed('unidadeTributavel'),
  qTrib: renamed('quantidadeTributavel'),
  vUnTrib: renamed('valorUnitarioTributavel'),
  vFrete: renamed('valorFrete'),
  vSeg: renamed('valorSeguro'),
  vDesc: renamed('desconto'),
  vOutro: renamed('outrasDespesas'),
  xPed: renamed('pedidoCompra'),
  nItemPed: renamed('itemPedidoCompra'),
  nFCI: unsupported('ficha de conteúdo de importação (nFCI)'),
  infAdProd: renamed('informacoesAdicionais'),
  obsItem: unsupported('observações do item (obsItem)'),
  DI: unsupported('declaração de importação (DI)'),
  detExport: unsupported('detalhe de exportação (detExport)'),
  rastro: unsupported('rastreabilidade (rastro)'),
  veicProd: unsupported('veículos novos (veicProd)'),
  med: unsupported('medicamentos (med)'),
  arma: unsupported('armamentos (arma)'),
  comb: renamed('combustivel'),
  nRECOPI: unsupported('RECOPI (nRECOPI)'),
  gCred: unsupported('crédito presumido (gCred)'),
  ICMS: renamed('icms'),
  IPI: renamed('ipi'),
  PIS: renamed('pis'),
  COFINS: renamed('cofins'),
  PISST: unsupported('PIS ST (PISST)'),
  COFINSST: unsupported('COFINS ST (COFINSST)'),
  IBSCBS: renamed('ibsCbs'),
  IS: unsupported('imposto seletivo (IS)'),
  II: unsupported('imposto de importação (II)'),
  ISSQN: unsupported('ISSQN em NF-e (ISSQN)'),
  ICMSUFDest: renamed('icmsUfDest'),
  impostoDevol: unsupported('IPI devolvido (impostoDevol)'),
  vTotTrib: computed('valor aproximado dos tributos calculado pelo serviço quando o emissor habilita'),
};

const ICMS: Record<string, string> = {
  orig: renamed('origem'),
  CST: renamed('cst'),
  CSOSN: renamed('csosn'),
  vBCSTRet: unsupported('ICMS ST retido anteriormente (vBCSTRet)'),
  pST: unsupported('ICMS ST retido anteriormente (pST)'),
  vICMSSubstituto: unsupported('ICMS ST retido anteriormente (vICMSSubstituto)'),
  vICMSSTRet: unsupported('ICMS ST retido anteriormente (vICMSSTRet)'),
  vBCFCPSTRet: unsupported('FCP ST retido anteriormente (vBCFCPSTRet)'),
  pFCPSTRet: unsupported('FCP ST retido anteriormente (pFCPSTRet)'),
  vFCPSTRet: unsupported('FCP ST retido anteriormente (vFCPSTRet)'),
  pRedBCEfet: unsupported('ICMS efetivo (pRedBCEfet)'),
  vBCEfet: unsupported('ICMS efetivo (vBCEfet)'),
  pICMSEfet: unsupported('ICMS efetivo (pICMSEfet)'),
  vICMSEfet: unsupported('ICMS efetivo (vICMSEfet)'),
  vBCSTDest: unsupported('repasse de ICMS ST (ICMSST)'),
  vICMSSTDest: unsupported('repasse de ICMS ST (ICMSST)'),
  pBCOp: unsupported('partilha do ICMS (ICMSPart)'),
  UFST: unsupported('partilha do ICMS (ICMSPart)'),
  vICMSOp: unsupported('diferimento (vICMSOp); informe vBC, pICMS e vICMS'),
  pDif: unsupported('diferimento (pDif)'),
  vICMSDif: unsupported('diferimento (vICMSDif)'),
  pFCPDif: unsupported('diferimento de FCP (pFCPDif)'),
  vFCPDif: unsupported('diferimento de FCP (vFCPDif)'),
  vFCPEfet: unsupported('FCP efetivo (vFCPEfet)'),
  vICMSSTDeson: unsupported('desoneração do ICMS ST (vICMSSTDeson)'),
  motDesICMSST: unsupported('desoneração do ICMS ST (motDesICMSST)'),
  cBenefRBC: unsupported('benefício da redução de base (cBenefRBC)'),
  pICMSMono: unsupported('monofásico com tributação própria (CST 15/53)'),
  pICMSMonoRet: unsupported('monofásico (pICMSMonoRet)'),
  qBCMonoReten: unsupported('monofásico com retenção (CST 15)'),
  adRemICMSReten: unsupported('monofásico com retenção (CST 15)'),
  vICMSMonoReten: unsupported('monofásico com retenção (CST 15)'),
  vICMSMonoOp: unsupported('monofásico diferido (CST 53)'),
  vICMSMonoDif: unsupported('monofásico diferido (CST 53)'),
  aliquotaICMS: renamed('pICMS (ou aliquota)'),
  valorICMS: renamed('vICMS (ou valor)'),
};

const PIS_COFINS = (tax: 'PIS' | 'COFINS'): Record<string, string> => ({
  CST: renamed('cst'),
  vBC: renamed('baseCalculo'),
  [`p${tax}`]: renamed('aliquota'),
  [`v${tax}`]: renamed('valor'),
  qBCProd: renamed('quantidadeVendida'),
  vAliqProd: renamed('valorAliquotaUnidade'),
});

const IPI: Record<string, string> = {
  CST: renamed('cst'),
  vBC: renamed('baseCalculo'),
  pIPI: renamed('aliquota'),
  vIPI: renamed('valor'),
  qUnid: renamed('quantidadeUnidadeTributavel'),
  vUnid: renamed('valorUnidadeTributavel'),
  CNPJProd: unsupported('CNPJ do produtor (CNPJProd)'),
  cSelo: unsupported('selo de controle do IPI (cSelo)'),
  qSelo: unsupported('selo de controle do IPI (qSelo)'),
};

const IBS_CBS: Record<string, string> = {
  CST: renamed('cst'),
  gIBSCBS: flattened('os campos do grupo ficam diretamente em ibsCbs'),
  gIBSUF: renamed('ibsUf'),
  gIBSMun: renamed('ibsMun'),
  gCBS: renamed('cbs'),
  pIBSUF: renamed('ibsUf.p'),
  vIBSUF: renamed('ibsUf.v'),
  pIBSMun: renamed('ibsMun.p'),
  vIBSMun: renamed('ibsMun.v'),
  pCBS: renamed('cbs.p'),
  vCBS: renamed('cbs.v'),
  vIBS: renamed('vIbs'),
  gDif: unsupported('diferimento de IBS/CBS (gDif)'),
  gDevTrib: unsupported('devolução de tributos (gDevTrib)'),
  gRed: flattened('a redução é pNominal e pRedAliq em ibsUf, ibsMun e cbs'),
  gTribRegular: unsupported('tributação regular (gTribRegular)'),
  gIBSCredPres: unsupported('crédito presumido de IBS (gIBSCredPres)'),
  gCBSCredPres: unsupported('crédito presumido de CBS (gCBSCredPres)'),
  gTribCompraGov: unsupported('compras governamentais (gTribCompraGov)'),
  gIBSCBSMono: unsupported('IBS/CBS monofásico (gIBSCBSMono)'),
};

const IBS_CBS_RATE: Record<string, string> = {
  pAliqEfet: renamed('p'),
  pDif: unsupported('diferimento de IBS/CBS (gDif)'),
  vDif: unsupported('diferimento de IBS/CBS (gDif)'),
  vDevTrib: unsupported('devolução de tributos (gDevTrib)'),
};

const COMBUSTIVEL: Record<string, string> = {
  UFCons: renamed('ufConsumo'),
  CODIF: unsupported('CODIF'),
  qTemp: unsupported('quantidade faturada à temperatura ambiente (qTemp)'),
  CIDE: unsupported('CIDE'),
  encerrante: unsupported('encerrante'),
  pBio: unsupported('percentual de biocombustível (pBio)'),
  origComb: unsupported('origem do combustível (origComb)'),
};

const DESTINATARIO: Record<string, string> = {
  CNPJ: renamed('cnpjCpf'),
  CPF: renamed('cnpjCpf'),
  cpf: renamed('cnpjCpf'),
  cnpj: renamed('cnpjCpf'),
  documento: renamed('cnpjCpf'),
  xNome: renamed('nome'),
  razaoSocial: renamed('nome'),
  IE: renamed('ie'),
  inscricaoEstadual: renamed('ie'),
  indIEDest: renamed('indicadorIE'),
  enderDest: renamed('endereco'),
  idEstrangeiro: unsupported('destinatário estrangeiro (idEstrangeiro)'),
  ISUF: unsupported('inscrição SUFRAMA (ISUF)'),
  IM: unsupported('inscrição municipal do destinatário (IM)'),
};

const ENDERECO: Record<string, string> = {
  xLgr: renamed('logradouro'),
  nro: renamed('numero'),
  xCpl: renamed('complemento'),
  xBairro: renamed('bairro'),
  cMun: renamed('codigoMunicipio'),
  xMun: renamed('municipio'),
  UF: renamed('uf'),
  CEP: renamed('cep'),
  cPais: renamed('codigoPais'),
  xPais: renamed('pais'),
  fone: renamed('telefone'),
};

const TRANSPORTE: Record<string, string> = {
  transporta: renamed('transportador'),
  veicTransp: renamed('veiculo'),
  vol: renamed('volumes'),
  retTransp: unsupported('retenção de ICMS do transporte (retTransp)'),
  reboque: unsupported('reboque'),
  vagao: unsupported('vagão'),
  balsa: unsupported('balsa'),
};

const VOLUME: Record<string, string> = {
  qVol: renamed('quantidade'),
  esp: renamed('especie'),
  nVol: renamed('numeracao'),
  pesoL: renamed('pesoLiquido'),
  pesoB: renamed('pesoBruto'),
  lacres: unsupported('lacres'),
};

const PAGAMENTO: Record<string, string> = {
  tPag: renamed('forma'),
  vPag: renamed('valor'),
  xPag: renamed('descricao'),
  card: renamed('cartao'),
  dPag: unsupported('data do pagamento (dPag)'),
  CNPJPag: unsupported('CNPJ do pagador (CNPJPag)'),
  UFPag: unsupported('UF do pagador (UFPag)'),
};

const CARTAO: Record<string, string> = {
  CNPJ: renamed('cnpjInstituicao'),
  tBand: renamed('bandeira'),
  cAut: renamed('autorizacao'),
  CNPJReceb: renamed('cnpjRecebedor'),
  idTermPag: renamed('idTerminal'),
};

const COBRANCA: Record<string, string> = {
  fat: renamed('fatura'),
  dup: renamed('duplicatas'),
};

/**
 * Frozen, without prototype: field-errors.ts indexes the map with the key as sent, so `constructor`
 * or `__proto__` must not find Object.prototype members.
 */
const hintMap = (entries: Record<string, string>): FieldHints => Object.freeze(Object.assign(Object.create(null), entries));

const prefixed = (prefix: string, map: Record<string, string>) =>
  Object.fromEntries(Object.entries(map).map(([k, v]) => [`${prefix}.${k}`, v]));

/** Hints of a single NF-e or NFC-e body (paths relative to the body). */
export const NFE_FIELD_HINTS: FieldHints = hintMap({
  ...ROOT,
  ...prefixed('items[]', ITEM),
  ...prefixed('items[].icms', ICMS),
  ...prefixed('items[].pis', PIS_COFINS('PIS')),
  ...prefixed('items[].cofins', PIS_COFINS('COFINS')),
  ...prefixed('items[].ipi', IPI),
  ...prefixed('items[].ibsCbs', IBS_CBS),
  ...prefixed('items[].ibsCbs.ibsUf', IBS_CBS_RATE),
  ...prefixed('items[].ibsCbs.ibsMun', IBS_CBS_RATE),
  ...prefixed('items[].ibsCbs.cbs', IBS_CBS_RATE),
  ...prefixed('items[].combustivel', COMBUSTIVEL),
  ...prefixed('destinatario', DESTINATARIO),
  ...prefixed('destinatario.endereco', ENDERECO),
  ...prefixed('transporte', TRANSPORTE),
  ...prefixed('transporte.volumes[]', VOLUME),
  ...prefixed('pagamentos[]', PAGAMENTO),
  ...prefixed('pagamentos[].cartao', CARTAO),
  ...prefixed('cobranca', COBRANCA),
  'referenciadas[].refNFe': renamed('chaveAcesso'),
  'referenciadas[].chave': renamed('chaveAcesso'),
});

/** NFC-e: the recipient is `destCPF`/`destNome`, and NF-e-only fields are named as such. */
export const NFCE_FIELD_HINTS: FieldHints = hintMap({
  ...NFE_FIELD_HINTS,
  dest: renamed('destCPF e destNome'),
  destinatario: renamed('destCPF e destNome'),
  finNFe: unsupported('NFC-e é sempre finalidade normal (finNFe)'),
  referenciadas: unsupported('NFC-e não referencia documentos'),
  NFref: unsupported('NFC-e não referencia documentos'),
  transporte: unsupported('NFC-e não tem transporte (modFrete 9)'),
  transp: unsupported('NFC-e não tem transporte (modFrete 9)'),
  idDest: computed('NFC-e é sempre operação interna (idDest 1)'),
  indFinal: computed('NFC-e é sempre consumidor final (indFinal 1)'),
  tpNF: computed('NFC-e é sempre saída (tpNF 1)'),
  dhSaiEnt: unsupported('NFC-e não tem data de saída/entrada (dhSaiEnt)'),
  dataSaidaEntrada: unsupported('NFC-e não tem data de saída/entrada (dhSaiEnt)'),
  xJust: renamed('justificativaContingencia'),
});

/** The same hints for the batch body, whose notes live under `notas[]`. */
export const NFE_BATCH_FIELD_HINTS: FieldHints = hintMap({
  ...NFE_FIELD_HINTS,
  ...Object.fromEntries(Object.entries(NFE_FIELD_HINTS).map(([k, v]) => [`notas[].${k}`, v])),
  nfes: renamed('notas'),
  notes: renamed('notas'),
});

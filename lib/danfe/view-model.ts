/**
 * The DANFE / DANFCE view model: what the printed document shows, read from the stored XML (an
 * nfeProc, or the signed NFe of an NFC-e still pending in offline contingency). Values stay the
 * XML's decimal strings (formatting is the renderers' job, lib/danfe/format.ts); nothing is
 * computed here except which marks the document carries.
 *
 * Sources: MOC 4.00 (DANFE layout, Anexo II) and the DANFE NFC-e manual (divisions I-VIII).
 */
import { XmlDocument, XmlElement } from 'libxml2-wasm';
import { NFE_NS } from '../sefaz/services.js';
import { parseXml } from '../xml/parse.js';

export interface DanfeAddress {
  logradouro: string;
  numero: string;
  complemento: string;
  bairro: string;
  municipio: string;
  uf: string;
  cep: string;
  fone: string;
}

export interface DanfeParty {
  nome: string;
  fantasia: string;
  /** CNPJ, CPF or foreign id (idEstrangeiro), digits as in the XML. */
  documento: string;
  ie: string;
  endereco: DanfeAddress | null;
  email: string;
}

export interface DanfeItem {
  nItem: number;
  codigo: string;
  descricao: string;
  ncm: string;
  /** orig + CST (e.g. "000") or the CSOSN (e.g. "0102"), as the DANFE column "O/CST" or "O/CSOSN". */
  cst: string;
  cfop: string;
  unidade: string;
  quantidade: string;
  valorUnitario: string;
  valorTotal: string;
  valorDesconto: string;
  bcIcms: string;
  valorIcms: string;
  aliquotaIcms: string;
  valorIpi: string;
  aliquotaIpi: string;
  infAdProd: string;
}

export interface DanfeTotals {
  vBC: string; vICMS: string; vICMSDeson: string; vFCP: string; vBCST: string; vST: string; vFCPST: string;
  vProd: string; vFrete: string; vSeg: string; vDesc: string; vII: string; vIPI: string;
  vPIS: string; vCOFINS: string; vOutro: string; vNF: string; vTotTrib: string;
  /** DIFAL / partilha (EC 87/2015, ICMSTot W04c-W04e): empty when the note has no ICMSUFDest group. */
  vFCPUFDest: string; vICMSUFDest: string; vICMSUFRemet: string;
}

export interface DanfeVolume {
  quantidade: string;
  especie: string;
  marca: string;
  numeracao: string;
  pesoLiquido: string;
  pesoBruto: string;
}

export interface DanfeTransport {
  modFrete: string;
  transportador: { nome: string; documento: string; ie: string; endereco: string; municipio: string; uf: string } | null;
  veiculo: { placa: string; uf: string; rntc: string } | null;
  volumes: DanfeVolume[];
}

export interface DanfeView {
  model: '55' | '65';
  accessKey: string;
  numero: number;
  serie: number;
  /** dhEmi as written (local time with offset). */
  dhEmi: string;
  dhSaiEnt: string;
  /** 0 entrada, 1 saída. */
  tpNF: '0' | '1';
  tpAmb: 1 | 2;
  tpEmis: number;
  /** tpImp (B21): 1 DANFE portrait, 2 landscape, 3 simplificado, 4 DANFE NFC-e, 5 NFC-e by message. */
  tpImp: number;
  naturezaOperacao: string;
  emitente: DanfeParty & { iest: string; im: string; crt: string };
  destinatario: DanfeParty | null;
  /** Protocol of authorization, absent for a note not yet authorized (contingency). */
  protocolo: { numero: string; dhRecbto: string } | null;
  contingencia: { dhCont: string; xJust: string } | null;
  fatura: { numero: string; valorOriginal: string; valorDesconto: string; valorLiquido: string } | null;
  duplicatas: { numero: string; vencimento: string; valor: string }[];
  totais: DanfeTotals;
  transporte: DanfeTransport;
  pagamentos: { forma: string; descricao: string; valor: string }[];
  troco: string;
  items: DanfeItem[];
  infCpl: string;
  infAdFisco: string;
  /** NFC-e: the QR code text and the consultation URL, from infNFeSupl. */
  qrCode: string;
  urlChave: string;
  /** Printed marks: homologation, canceled, contingency pending authorization. */
  marcas: DanfeMark[];
  /** Only on a reprint that asks for it (DanfeViewOptions.cartaCorrecao). */
  cartaCorrecao: DanfeCartaCorrecao | null;
}

export type DanfeMark = 'SEM_VALOR_FISCAL' | 'CANCELADA' | 'CONTINGENCIA_PENDENTE';

export interface DanfeViewOptions {
  /** The document's status says CANCELADA (the nfeProc itself does not carry the event). */
  cancelada?: boolean;
  /** The note's last registered CC-e, printed in the complementary information of a reprint. */
  cartaCorrecao?: DanfeCartaCorrecao;
}

/** A registered CC-e as the DANFE reprint shows it (the last one replaces the earlier ones: MOC 4.00, CC-e). */
export interface DanfeCartaCorrecao {
  sequencia: number;
  correcao: string;
  protocolo: string;
  dhRegEvento: string;
}

/**
 * An element with its child elements indexed by name, read once: the layout is read group by
 * group, never searched, and each libxml2 node access crosses into WebAssembly.
 */
interface Group {
  el: XmlElement;
  kids: Map<string, XmlElement[]>;
}
type G = Group | null;

function group(el: XmlElement | null): G {
  if (!el) return null;
  const kids = new Map<string, XmlElement[]>();
  for (let c = el.firstChild; c; c = c.next) {
    if (!(c instanceof XmlElement) || c.namespaceUri !== NFE_NS) continue;
    const list = kids.get(c.name);
    if (list) list.push(c);
    else kids.set(c.name, [c]);
  }
  return { el, kids };
}

const direct = (g: G, name: string): G => group(g?.kids.get(name)?.[0] ?? null);
const directAll = (g: G, name: string): Group[] => (g?.kids.get(name) ?? []).map((el) => group(el)!);
const ds = (g: G, name: string): string => g?.kids.get(name)?.[0]?.content.trim() ?? '';
const firstElementChild = (g: G): G => group(g ? [...g.kids.values()][0]?.[0] ?? null : null);
const attr = (g: G, name: string): string => g?.el.attr(name)?.value ?? '';

function address(node: G): DanfeAddress | null {
  if (!node) return null;
  return {
    logradouro: ds(node, 'xLgr'), numero: ds(node, 'nro'), complemento: ds(node, 'xCpl'), bairro: ds(node, 'xBairro'),
    municipio: ds(node, 'xMun'), uf: ds(node, 'UF'), cep: ds(node, 'CEP'), fone: ds(node, 'fone'),
  };
}

function party(node: Group, enderTag: string): DanfeParty {
  return {
    nome: ds(node, 'xNome'), fantasia: ds(node, 'xFant'),
    documento: ds(node, 'CNPJ') || ds(node, 'CPF') || ds(node, 'idEstrangeiro'),
    ie: ds(node, 'IE'), endereco: address(direct(node, enderTag)), email: ds(node, 'email'),
  };
}

function item(det: Group): DanfeItem {
  const prod = direct(det, 'prod');
  const imposto = direct(det, 'imposto');
  const icms = firstElementChild(direct(imposto, 'ICMS'));
  const ipiTrib = direct(direct(imposto, 'IPI'), 'IPITrib');
  const csosn = ds(icms, 'CSOSN');
  return {
    nItem: Number(attr(det, 'nItem')),
    codigo: ds(prod, 'cProd'), descricao: ds(prod, 'xProd'), ncm: ds(prod, 'NCM'),
    cst: icms ? `${ds(icms, 'orig')}${csosn || ds(icms, 'CST')}` : '',
    cfop: ds(prod, 'CFOP'), unidade: ds(prod, 'uCom'), quantidade: ds(prod, 'qCom'),
    valorUnitario: ds(prod, 'vUnCom'), valorTotal: ds(prod, 'vProd'), valorDesconto: ds(prod, 'vDesc'),
    bcIcms: ds(icms, 'vBC'), valorIcms: ds(icms, 'vICMS'), aliquotaIcms: ds(icms, 'pICMS'),
    valorIpi: ds(ipiTrib, 'vIPI'), aliquotaIpi: ds(ipiTrib, 'pIPI'),
    infAdProd: ds(det, 'infAdProd'),
  };
}

const TOTAL_TAGS = [
  'vBC', 'vICMS', 'vICMSDeson', 'vFCP', 'vBCST', 'vST', 'vFCPST', 'vProd', 'vFrete', 'vSeg', 'vDesc', 'vII', 'vIPI', 'vPIS', 'vCOFINS', 'vOutro', 'vNF', 'vTotTrib',
  'vFCPUFDest', 'vICMSUFDest', 'vICMSUFRemet',
] as const;

function transport(transp: G): DanfeTransport {
  const t = direct(transp, 'transporta');
  const v = direct(transp, 'veicTransp');
  return {
    modFrete: ds(transp, 'modFrete'),
    transportador: t ? {
      nome: ds(t, 'xNome'), documento: ds(t, 'CNPJ') || ds(t, 'CPF'), ie: ds(t, 'IE'),
      endereco: ds(t, 'xEnder'), municipio: ds(t, 'xMun'), uf: ds(t, 'UF'),
    } : null,
    veiculo: v ? { placa: ds(v, 'placa'), uf: ds(v, 'UF'), rntc: ds(v, 'RNTC') } : null,
    volumes: directAll(transp, 'vol').map((vol) => ({
      quantidade: ds(vol, 'qVol'), especie: ds(vol, 'esp'), marca: ds(vol, 'marca'), numeracao: ds(vol, 'nVol'),
      pesoLiquido: ds(vol, 'pesoL'), pesoBruto: ds(vol, 'pesoB'),
    })),
  };
}

/**
 * Reads an nfeProc (authorized or canceled note) or a bare signed NFe (NFC-e in offline
 * contingency) into the view model. Throws on XML that is not an NF-e/NFC-e 4.00.
 */
export function buildDanfeView(xml: string, options: DanfeViewOptions = {}): DanfeView {
  let doc: XmlDocument;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw new Error(`malformed XML: ${String((err as Error).message).trim()}`);
  }
  try {
    return readView(group(doc.root)!, options);
  } finally {
    doc.dispose();
  }
}

function readView(root: Group, options: DanfeViewOptions): DanfeView {
  // nfeProc (NFe + protNFe) or a bare NFe.
  const nfe = root.el.name === 'NFe' && root.el.namespaceUri === NFE_NS ? root : direct(root, 'NFe');
  const infNFe = direct(nfe, 'infNFe');
  if (!infNFe) throw new Error('not an NF-e: no infNFe');
  const id = attr(infNFe, 'Id');
  const ide = direct(infNFe, 'ide');
  const emit = direct(infNFe, 'emit');
  if (!ide || !emit) throw new Error('not an NF-e: no ide/emit');
  const model = ds(ide, 'mod');
  if (model !== '55' && model !== '65') throw new Error(`unsupported model ${model}`);
  const dest = direct(infNFe, 'dest');
  const total = direct(direct(infNFe, 'total'), 'ICMSTot');
  const cobr = direct(infNFe, 'cobr');
  const fat = direct(cobr, 'fat');
  const pag = direct(infNFe, 'pag');
  const infAdic = direct(infNFe, 'infAdic');
  const supl = direct(nfe, 'infNFeSupl');
  const infProt = direct(direct(root, 'protNFe'), 'infProt');
  const nProt = ds(infProt, 'nProt');
  const cStat = ds(infProt, 'cStat');
  // Only an authorizing protocol (100 authorized, 150 authorized out of time) prints as the authorization.
  const protocolo = nProt && (cStat === '100' || cStat === '150') ? { numero: nProt, dhRecbto: ds(infProt, 'dhRecbto') } : null;
  const tpAmb = ds(ide, 'tpAmb') === '1' ? 1 : 2;
  const tpEmis = Number(ds(ide, 'tpEmis') || '1');
  const dhCont = ds(ide, 'dhCont');

  const marcas: DanfeMark[] = [];
  if (tpAmb === 2) marcas.push('SEM_VALOR_FISCAL');
  if (options.cancelada) marcas.push('CANCELADA');
  if (!protocolo && tpEmis !== 1) marcas.push('CONTINGENCIA_PENDENTE');

  const totais = Object.fromEntries(TOTAL_TAGS.map((tag) => [tag, ds(total, tag)])) as unknown as DanfeTotals;

  return {
    model,
    accessKey: id.replace(/^NFe/, ''),
    numero: Number(ds(ide, 'nNF')),
    serie: Number(ds(ide, 'serie')),
    dhEmi: ds(ide, 'dhEmi'),
    dhSaiEnt: ds(ide, 'dhSaiEnt'),
    tpNF: ds(ide, 'tpNF') === '0' ? '0' : '1',
    tpAmb,
    tpEmis,
    tpImp: Number(ds(ide, 'tpImp') || (model === '65' ? '4' : '1')),
    naturezaOperacao: ds(ide, 'natOp'),
    emitente: { ...party(emit, 'enderEmit'), iest: ds(emit, 'IEST'), im: ds(emit, 'IM'), crt: ds(emit, 'CRT') },
    destinatario: dest ? party(dest, 'enderDest') : null,
    protocolo,
    contingencia: dhCont ? { dhCont, xJust: ds(ide, 'xJust') } : null,
    fatura: fat ? { numero: ds(fat, 'nFat'), valorOriginal: ds(fat, 'vOrig'), valorDesconto: ds(fat, 'vDesc'), valorLiquido: ds(fat, 'vLiq') } : null,
    duplicatas: directAll(cobr, 'dup').map((d) => ({ numero: ds(d, 'nDup'), vencimento: ds(d, 'dVenc'), valor: ds(d, 'vDup') })),
    totais,
    transporte: transport(direct(infNFe, 'transp')),
    pagamentos: directAll(pag, 'detPag').map((d) => ({ forma: ds(d, 'tPag'), descricao: ds(d, 'xPag'), valor: ds(d, 'vPag') })),
    troco: ds(pag, 'vTroco'),
    items: directAll(infNFe, 'det').map(item),
    infCpl: ds(infAdic, 'infCpl'),
    infAdFisco: ds(infAdic, 'infAdFisco'),
    qrCode: ds(supl, 'qrCode'),
    urlChave: ds(supl, 'urlChave'),
    marcas,
    cartaCorrecao: options.cartaCorrecao ?? null,
  };
}

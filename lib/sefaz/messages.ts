import { stripXmlDeclaration } from './soap.js';
import { brasiliaDateTime, escapeXml } from './xml.js';
import { NFE_NS } from './services.js';
import type { Ambiente } from '../issuer/types.js';

/**
 * The NF-e 4.00 request messages (the content of nfeDadosMsg), written canonically (no whitespace,
 * layout order). Signed messages (event, inutilização) take an injected `sign(xml, id)` that returns
 * the document with an enveloped XMLDSig over the element whose Id is `id` (lib/sign/signer.ts in
 * production; xml-crypto in tests).
 */
export type SignFn = (xml: string, id: string) => string | Promise<string>;

/** enviNFe (AP01): one signed NFe per batch; indSinc 1 = synchronous answer with protNFe. */
export function buildEnviNFe(opts: { idLote: string; signedNfeXml: string; sync?: boolean }): string {
  if (!/^\d{1,15}$/.test(opts.idLote)) throw new Error('idLote must have 1 to 15 digits');
  return `<enviNFe xmlns="${NFE_NS}" versao="4.00"><idLote>${opts.idLote}</idLote>`
    + `<indSinc>${opts.sync === false ? 0 : 1}</indSinc>${stripXmlDeclaration(opts.signedNfeXml)}</enviNFe>`;
}

/** consReciNFe (BP01): result of an asynchronous batch by its receipt. */
export function buildConsReciNFe(opts: { ambiente: Ambiente; receipt: string }): string {
  return `<consReciNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${opts.ambiente}</tpAmb><nRec>${opts.receipt}</nRec></consReciNFe>`;
}

/** consSitNFe (EP01): situation of a note by access key. */
export function buildConsSitNFe(opts: { ambiente: Ambiente; accessKey: string }): string {
  return `<consSitNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${opts.ambiente}</tpAmb><xServ>CONSULTAR</xServ><chNFe>${opts.accessKey}</chNFe></consSitNFe>`;
}

/** consStatServ (FP01). cUF is the IBGE code of the UF asked about. */
export function buildConsStatServ(opts: { ambiente: Ambiente; cUF: string }): string {
  return `<consStatServ xmlns="${NFE_NS}" versao="4.00"><tpAmb>${opts.ambiente}</tpAmb><cUF>${opts.cUF}</cUF><xServ>STATUS</xServ></consStatServ>`;
}

/** Text of xCondUso fixed by the CC-e layout (NT 2011.003 / envCCe_v1.00.xsd enumeration). */
export const CCE_COND_USO = 'A Carta de Correcao e disciplinada pelo paragrafo 1o-A do art. 7o do Convenio S/N, de 15 de dezembro de 1970 e pode ser utilizada para regularizacao de erro ocorrido na emissao de documento fiscal, desde que o erro nao esteja relacionado com: I - as variaveis que determinam o valor do imposto tais como: base de calculo, aliquota, diferenca de preco, quantidade, valor da operacao ou da prestacao; II - a correcao de dados cadastrais que implique mudanca do remetente ou do destinatario; III - a data de emissao ou de saida.';

export type EventDetail =
  | { type: 'cancelamento'; protocol: string; justificativa: string }
  | { type: 'cce'; correcao: string };

export interface EventInput {
  /** IBGE code of the authority that receives the event (cOrgao): the UF of the note. */
  cOrgao: string;
  ambiente: Ambiente;
  cnpj: string;
  accessKey: string;
  sequence: number;
  at: Date;
  detail: EventDetail;
}

export function eventCode(detail: EventDetail): '110111' | '110110' {
  return detail.type === 'cancelamento' ? '110111' : '110110';
}

export function eventId(input: Pick<EventInput, 'accessKey' | 'sequence' | 'detail'>): string {
  return `ID${eventCode(input.detail)}${input.accessKey}${String(input.sequence).padStart(2, '0')}`;
}

/** evento (HP05) unsigned; detEvento per envEventoCancNFe / envCCe. */
export function buildEvento(input: EventInput): string {
  const d = input.detail;
  const det = d.type === 'cancelamento'
    ? `<detEvento versao="1.00"><descEvento>Cancelamento</descEvento><nProt>${d.protocol}</nProt><xJust>${escapeXml(d.justificativa)}</xJust></detEvento>`
    : `<detEvento versao="1.00"><descEvento>Carta de Correcao</descEvento><xCorrecao>${escapeXml(d.correcao)}</xCorrecao><xCondUso>${CCE_COND_USO}</xCondUso></detEvento>`;
  return `<evento xmlns="${NFE_NS}" versao="1.00"><infEvento Id="${eventId(input)}">`
    + `<cOrgao>${input.cOrgao}</cOrgao><tpAmb>${input.ambiente}</tpAmb><CNPJ>${input.cnpj}</CNPJ>`
    + `<chNFe>${input.accessKey}</chNFe><dhEvento>${brasiliaDateTime(input.at)}</dhEvento>`
    + `<tpEvento>${eventCode(d)}</tpEvento><nSeqEvento>${input.sequence}</nSeqEvento><verEvento>1.00</verEvento>`
    + `${det}</infEvento></evento>`;
}

/** envEvento (HP01) with one signed evento. Returns the batch and the signed evento (for procEventoNFe). */
export async function buildEnvEvento(input: EventInput & { idLote: string }, sign: SignFn): Promise<{ xml: string; signedEvento: string }> {
  const signedEvento = stripXmlDeclaration(await sign(buildEvento(input), eventId(input)));
  return {
    xml: `<envEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${input.idLote}</idLote>${signedEvento}</envEvento>`,
    signedEvento,
  };
}

export interface InutilizacaoInput {
  cUF: string;
  ambiente: Ambiente;
  /** Two-digit year. */
  ano: string;
  cnpj: string;
  model: '55' | '65';
  serie: number;
  inicio: number;
  fim: number;
  justificativa: string;
}

/** Id of infInut (DP04): "ID" + cUF + ano + CNPJ + mod + serie(3) + nNFIni(9) + nNFFin(9). */
export function inutilizacaoId(i: InutilizacaoInput): string {
  return `ID${i.cUF}${i.ano}${i.cnpj}${i.model}${String(i.serie).padStart(3, '0')}${String(i.inicio).padStart(9, '0')}${String(i.fim).padStart(9, '0')}`;
}

/** inutNFe (DP01), signed over infInut. */
export async function buildInutNFe(i: InutilizacaoInput, sign: SignFn): Promise<string> {
  const id = inutilizacaoId(i);
  const xml = `<inutNFe xmlns="${NFE_NS}" versao="4.00"><infInut Id="${id}"><tpAmb>${i.ambiente}</tpAmb><xServ>INUTILIZAR</xServ>`
    + `<cUF>${i.cUF}</cUF><ano>${i.ano}</ano><CNPJ>${i.cnpj}</CNPJ><mod>${i.model}</mod><serie>${i.serie}</serie>`
    + `<nNFIni>${i.inicio}</nNFIni><nNFFin>${i.fim}</nNFFin><xJust>${escapeXml(i.justificativa)}</xJust></infInut></inutNFe>`;
  return stripXmlDeclaration(await sign(xml, id));
}

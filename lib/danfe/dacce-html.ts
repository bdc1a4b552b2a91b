/**
 * DACCe as one HTML page: the same fields as lib/danfe/dacce-pdf.ts, every text escaped.
 */
import type { DacceView } from './dacce-view.js';
import { formatCnpjCpf, formatDate, formatDateTime, formatNumber, formatSerie, groupAccessKey } from './format.js';
import { barcodeSvg } from './barcode.js';
import { esc, field } from './html.js';

const CSS = `
*{box-sizing:border-box}body{margin:0;font-family:Helvetica,Arial,sans-serif;font-size:8pt;color:#000;background:#eee}
.page{position:relative;width:210mm;min-height:297mm;margin:8px auto;padding:7mm;background:#fff;overflow:hidden}
h1{font-size:12pt;text-align:center;margin:0 0 4px}h2{font-size:7pt;margin:5px 0 0;text-transform:uppercase}
table{width:100%;border-collapse:collapse;table-layout:fixed;margin-top:2px}td{border:1px solid #000;vertical-align:top;padding:1px 3px;overflow:hidden}
.f .l{display:block;font-size:5.5pt;text-transform:uppercase}.f .v{display:block;font-size:8pt;min-height:10pt}
.emit .nome{font-size:10pt;font-weight:bold;display:block;margin-bottom:3px}.c{text-align:center}.barcode{width:100%;height:34px;display:block}
.texto{white-space:pre-wrap;font-size:9pt;min-height:120px}.uso{white-space:pre-wrap;font-size:7pt}
.mark{position:absolute;left:0;right:0;top:45%;text-align:center;font-size:48pt;font-weight:bold;color:rgba(200,0,0,.28);transform:rotate(-30deg);pointer-events:none;z-index:0}
.mark small{display:block;font-size:16pt}@media print{body{background:#fff}.page{margin:0}}
`;

export function renderDacceHtml(v: DacceView): string {
  const e = v.nota?.emitente;
  const a = e?.endereco;
  const addr = [a ? `${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}` : '', a ? `${a.bairro} - ${a.municipio} - ${a.uf}` : '', `CNPJ/CPF ${formatCnpjCpf(v.autor)}`]
    .filter(Boolean).map(esc).join('<br>');
  const reg = v.registro;
  const d = v.nota?.destinatario;
  const mark = v.tpAmb === 2 ? '<div class="mark">SEM VALOR FISCAL<small>EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO</small></div>' : '';
  const body = `<h1>CARTA DE CORREÇÃO ELETRÔNICA</h1>
<table><colgroup><col style="width:45%"><col style="width:55%"></colgroup><tr><td rowspan="2" class="emit"><span class="nome">${esc(e?.nome ?? formatCnpjCpf(v.autor))}</span>${addr}</td>
<td class="c"><b>DACCe</b><br>Documento Auxiliar da Carta de Correção Eletrônica${barcodeSvg(v.accessKey)}</td></tr><tr>${field('Chave de acesso da NF-e', groupAccessKey(v.accessKey), 'c')}</tr></table>
<h2>Nota fiscal corrigida</h2><table><tr>${field('Modelo', v.modelo)}${field('Série', formatSerie(v.serie))}${field('Número', formatNumber(v.numero))}${field('Data de emissão', formatDate(v.nota?.dhEmi))}</tr></table>
<h2>Evento</h2><table><tr>${field('Órgão', v.cOrgao)}${field('Ambiente', v.tpAmb === 1 ? '1 - Produção' : '2 - Homologação')}${field('Data e hora do evento', formatDateTime(v.dhEvento))}${field('Sequência', String(v.sequencia))}${field('Tipo', '110110 - Carta de Correção')}</tr>
<tr>${field('Protocolo de registro', reg?.protocolo ?? '')}${field('Data e hora do registro', formatDateTime(reg?.dhRegEvento))}<td class="f" colspan="3"><span class="l">Situação</span><span class="v">${reg ? esc(`${reg.cStat} - ${reg.xMotivo}`) : '&nbsp;'}</span></td></tr></table>
<h2>Destinatário</h2><table><tr>${field('Nome / Razão social', d?.nome ?? '')}${field('CNPJ / CPF', formatCnpjCpf(d?.documento))}${field('UF', d?.endereco?.uf ?? '')}</tr></table>
<h2>Correção</h2><table><tr><td class="texto">${esc(v.correcao)}</td></tr></table>
<h2>Condições de uso</h2><table><tr><td class="uso">${esc(v.condicaoUso)}</td></tr></table>`;
  return `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>DACCe ${esc(groupAccessKey(v.accessKey))} - ${v.sequencia}</title><style>${CSS}</style></head><body><section class="page">${mark}${body}</section></body></html>`;
}

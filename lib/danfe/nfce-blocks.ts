/**
 * The DANFE NFC-e (DANFCE) as an ordered list of receipt blocks, following the divisions of the
 * DANFE NFC-e manual: I issuer, (marks), II items, III totals and payments, IV consultation URL and
 * access key, V consumer, VI identification and protocol, VII QR code, VIII taxes and additional
 * information. Both renderers (HTML, 80 mm PDF) draw these blocks, so they print the same content.
 */
import type { DanfeView } from './view-model.js';
import {
  formatCnpjCpf, formatDateTime, formatDecimal, formatMoney, formatNumber, formatSerie, groupAccessKey, FORMA_PAGAMENTO,
} from './format.js';

export type BlockSize = 's' | 'm' | 'l';

export type ReceiptBlock =
  | { kind: 'text'; text: string; size: BlockSize; bold?: boolean; align: 'left' | 'center' | 'right'; mark?: boolean }
  | { kind: 'pair'; left: string; right: string; bold?: boolean }
  | { kind: 'item'; codigo: string; descricao: string; detalhe: string; total: string }
  | { kind: 'itemsHead' }
  | { kind: 'rule' }
  | { kind: 'qr'; text: string };

const center = (text: string, size: BlockSize = 's', bold = false): ReceiptBlock => ({ kind: 'text', text, size, bold, align: 'center' });

const HOMOLOGACAO = 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO – SEM VALOR FISCAL';

function cents(value: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  return m ? BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0')) : 0n;
}

export function nfceBlocks(v: DanfeView): ReceiptBlock[] {
  const b: ReceiptBlock[] = [];
  const e = v.emitente;
  const a = e.endereco;
  // Division I: issuer.
  b.push(center(e.nome, 'm', true));
  b.push(center(`CNPJ: ${formatCnpjCpf(e.documento)}   IE: ${e.ie}`));
  if (a) b.push(center(`${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}, ${a.bairro}, ${a.municipio} - ${a.uf}`));
  b.push({ kind: 'rule' });
  b.push(center('Documento Auxiliar da Nota Fiscal de Consumidor Eletrônica', 's', true));
  if (v.marcas.includes('CANCELADA')) b.push({ kind: 'text', text: 'CANCELADA', size: 'l', bold: true, align: 'center', mark: true });
  if (v.tpEmis === 9) {
    b.push({ kind: 'text', text: 'EMITIDA EM CONTINGÊNCIA', size: 'm', bold: true, align: 'center', mark: true });
    if (!v.protocolo) b.push({ kind: 'text', text: 'Pendente de autorização', size: 's', bold: true, align: 'center', mark: true });
  }
  if (v.marcas.includes('SEM_VALOR_FISCAL')) b.push({ kind: 'text', text: HOMOLOGACAO, size: 's', bold: true, align: 'center', mark: true });
  b.push({ kind: 'rule' });

  // Division II: items.
  b.push({ kind: 'itemsHead' });
  for (const i of v.items) {
    b.push({
      kind: 'item', codigo: i.codigo, descricao: i.descricao,
      detalhe: `${formatDecimal(i.quantidade, 3)} ${i.unidade} x ${formatDecimal(i.valorUnitario, 2)}`,
      total: formatMoney(i.valorTotal),
    });
  }
  b.push({ kind: 'rule' });

  // Division III: totals and payments.
  const t = v.totais;
  b.push({ kind: 'pair', left: 'Qtde. total de itens', right: String(v.items.length) });
  b.push({ kind: 'pair', left: 'Valor total R$', right: formatMoney(t.vProd) });
  if (cents(t.vDesc || '0') > 0n) b.push({ kind: 'pair', left: 'Desconto R$', right: formatMoney(t.vDesc) });
  const acrescimo = cents(t.vFrete || '0') + cents(t.vSeg || '0') + cents(t.vOutro || '0');
  if (acrescimo > 0n) b.push({ kind: 'pair', left: 'Acréscimo R$', right: formatMoney(`${acrescimo / 100n}.${String(acrescimo % 100n).padStart(2, '0')}`) });
  b.push({ kind: 'pair', left: 'Valor a pagar R$', right: formatMoney(t.vNF), bold: true });
  b.push({ kind: 'pair', left: 'FORMA DE PAGAMENTO', right: 'VALOR PAGO R$', bold: true });
  for (const p of v.pagamentos) b.push({ kind: 'pair', left: p.descricao || FORMA_PAGAMENTO[p.forma] || p.forma, right: formatMoney(p.valor) });
  if (v.troco && cents(v.troco) > 0n) b.push({ kind: 'pair', left: 'Troco R$', right: formatMoney(v.troco) });
  b.push({ kind: 'rule' });

  // Division IV: consultation.
  b.push(center('Consulte pela Chave de Acesso em', 's', true));
  b.push(center(v.urlChave));
  b.push(center(groupAccessKey(v.accessKey), 's', true));
  b.push({ kind: 'rule' });

  // Division V: consumer.
  const d = v.destinatario;
  if (d?.documento) {
    const kind = d.documento.length === 14 ? 'CNPJ' : d.documento.length === 11 ? 'CPF' : 'Id. estrangeiro';
    b.push(center(`CONSUMIDOR - ${kind} ${formatCnpjCpf(d.documento)}${d.nome ? ` - ${d.nome}` : ''}`, 's', true));
    const da = d.endereco;
    if (da) b.push(center(`${da.logradouro}, ${da.numero}, ${da.bairro}, ${da.municipio} - ${da.uf}`));
  } else {
    b.push(center('CONSUMIDOR NÃO IDENTIFICADO', 's', true));
  }
  b.push({ kind: 'rule' });

  // Division VI: identification and protocol.
  b.push(center(`NFC-e nº ${formatNumber(v.numero)}  Série ${formatSerie(v.serie)}  ${formatDateTime(v.dhEmi)}`, 's', true));
  if (v.protocolo) {
    b.push(center(`Protocolo de autorização: ${v.protocolo.numero}`, 's', true));
    b.push(center(`Data de autorização: ${formatDateTime(v.protocolo.dhRecbto)}`));
  }

  // Division VII: QR code.
  if (v.qrCode) b.push({ kind: 'qr', text: v.qrCode });

  // Division VIII: approximate taxes and additional information.
  if (cents(t.vTotTrib || '0') > 0n) b.push(center(`Tributos Totais Incidentes (Lei Federal 12.741/2012): R$ ${formatMoney(t.vTotTrib)}`));
  if (v.infCpl) {
    b.push({ kind: 'rule' });
    b.push({ kind: 'text', text: v.infCpl, size: 's', align: 'left' });
  }
  return b;
}

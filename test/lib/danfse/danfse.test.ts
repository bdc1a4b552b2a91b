import test from 'ava';
import { buildDanfseView } from '../../../lib/danfse/view-model.js';
import { renderDanfseHtml } from '../../../lib/danfse/html.js';
import { renderDanfsePdf } from '../../../lib/danfse/pdf.js';
import { danfseMarks, danfseSections } from '../../../lib/danfse/rows.js';
import { pdfText } from '../../support/danfe-notes.js';
import { readSample } from '../../support/samples.js';

const sample = readSample('nfse/NFSe_v1.01_ibscbs_ficticia_sped-da.xml');

test('buildDanfseView reads the key, number, parties, service, taxes and totals of an NFS-e 1.01', (t) => {
  const v = buildDanfseView(sample);
  t.like(v, {
    chaveAcesso: '41069022211222333000181000000000012326091234567897', numero: '123', dhProc: '2026-09-15T10:20:30-03:00', serie: '1', nDPS: '123',
    homologacao: false, cancelada: false, consultaUrl: 'https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=41069022211222333000181000000000012326091234567897',
    emitente: { nome: 'ALFA SOLUCOES EM SOFTWARE LTDA', documento: '11222333000181', im: '1234567', municipio: 'Curitiba', cep: '80010000' },
    tomador: { nome: 'FULANO DE TAL DA SILVA', documento: '52998224725' },
    servico: { xTribNac: 'Análise e desenvolvimento de sistemas.', localPrestacao: 'Curitiba' },
    tribMun: { vBC: '1500.00', pAliq: '2.00', vISSQN: '30.00', localIncidencia: 'Curitiba' },
    valores: { vLiq: '1500.00', vTotalRet: '0.00' },
  });
});

test('danfseSections follow the national layout order and format money the Brazilian way; marks for homologation and cancellation', (t) => {
  const v = buildDanfseView(sample, { cancelada: true });
  t.deepEqual(danfseSections(v).map((s) => s.title), [
    'Identificação da NFS-e', 'Emitente da NFS-e (prestador do serviço)', 'Tomador do serviço', 'Serviço prestado',
    'Tributação municipal (ISSQN)', 'Tributação federal (retenções)', 'Valor total da NFS-e', 'Informações complementares',
  ]);
  const totals = danfseSections(v).find((s) => s.title === 'Valor total da NFS-e')!.rows[0]!;
  t.is(totals.find((f) => f.label === 'Valor líquido da NFS-e')!.value, '1.500,00');
  t.deepEqual(danfseMarks(v), ['CANCELADA']);
  t.deepEqual(danfseMarks({ ...v, homologacao: true, cancelada: false }), ['NFS-e SEM VALIDADE JURÍDICA (HOMOLOGAÇÃO)']);
});

test('renderDanfseHtml escapes every text and carries the QR code; renderDanfsePdf is an A4 PDF with the key and the texts', async (t) => {
  const v = buildDanfseView(sample);
  const html = renderDanfseHtml({ ...v, servico: { ...v.servico, descricao: 'A & B <script>' } });
  t.true(html.includes('A &amp; B &lt;script&gt;'));
  t.false(html.includes('<script>'));
  t.regex(html, /<svg[^>]*viewBox/);
  const pdf = await renderDanfsePdf(v, { compress: false });
  t.is(pdf.subarray(0, 5).toString(), '%PDF-');
  t.regex(pdf.toString('latin1'), /\/MediaBox \[0 0 595\.28 841\.89\]/);
  const text = pdfText(pdf);
  for (const expected of ['DANFSe v1.0', '41069022211222333000181000000000012326091234567897', 'ALFA SOLUCOES EM SOFTWARE LTDA', 'FULANO DE TAL DA SILVA', '1.500,00']) {
    t.true(text.includes(expected), expected);
  }
});

test('buildDanfseView refuses what is not an NFS-e', (t) => {
  t.throws(() => buildDanfseView('<NFe xmlns="http://www.portalfiscal.inf.br/nfe"/>'), { message: /not an NFS-e/ });
  t.throws(() => buildDanfseView('<<'), { message: /malformed XML/ });
});

import test from 'ava';
import { buildDacceView } from '../../../lib/danfe/dacce-view.js';
import { renderDaccePdf } from '../../../lib/danfe/dacce-pdf.js';
import { renderDacceHtml } from '../../../lib/danfe/dacce-html.js';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { groupAccessKey } from '../../../lib/danfe/format.js';
import { pdfPages, pdfText } from '../../support/danfe-notes.js';
import { readSample } from '../../support/samples.js';
import { oneItemProc } from '../../support/danfe-golden-notes.js';

const CCE = readSample('events/procEventoNFe_CCe_110110_DF_prod_53181011028793000173550010000066701204276800.xml');
const KEY = '53181011028793000173550010000066701204276800';
const CORRECAO = 'Nota 6670 referente a serviços de transportes (Frete) referente ao período da segunda quinzena de Agosto de 2018.';

test('buildDacceView reads the real DF CC-e: key, note identity, event, correction and its registration', (t) => {
  const v = buildDacceView(CCE);
  t.like(v, {
    accessKey: KEY, modelo: '55', serie: 1, numero: 6670, tpAmb: 1, cOrgao: '53', autor: '11028793000173',
    dhEvento: '2018-10-05T17:34:36-03:00', sequencia: 1, correcao: CORRECAO, nota: null,
    registro: { protocolo: '353180043800804', dhRegEvento: '2018-10-05T17:34:57-03:00', cStat: '135', xMotivo: 'Evento registrado e vinculado a NF-e' },
  });
  t.true(v.condicaoUso.startsWith('A Carta de Correcao e disciplinada pelo paragrafo 1o-A do art. 7o do Convenio S/N'));
});

test('buildDacceView refuses an event that is not a CC-e and XML that is not an event', (t) => {
  t.throws(() => buildDacceView(CCE.replaceAll('<tpEvento>110110</tpEvento>', '<tpEvento>110111</tpEvento>')), { message: 'not a CC-e: tpEvento 110111' });
  t.throws(() => buildDacceView(oneItemProc()), { message: 'not an NF-e event: no infEvento' });
  t.throws(() => buildDacceView('<procEventoNFe'), { message: /^malformed XML/ });
});

test('buildDacceView takes the parties and the emission date from the note', (t) => {
  const note = buildDanfeView(oneItemProc());
  const v = buildDacceView(CCE, note);
  t.deepEqual(v.nota, { dhEmi: note.dhEmi, emitente: note.emitente, destinatario: note.destinatario });
});

test('renderDaccePdf prints one page with the key, the correction, the protocol and no homologation mark in production', async (t) => {
  const pdf = await renderDaccePdf(buildDacceView(CCE), { compress: false });
  t.is(pdfPages(pdf), 1);
  const text = pdfText(pdf);
  for (const s of ['CARTA DE CORREÇÃO ELETRÔNICA', 'DACCe', groupAccessKey(KEY), '000.006.670', '353180043800804', '05/10/2018 17:34:57', '135 - Evento registrado e vinculado a NF-e', 'Nota 6670 referente a serviços de transportes (Frete) referente ao']) {
    t.true(text.includes(s), s);
  }
  t.false(text.includes('SEM VALOR FISCAL'));
});

test('renderDaccePdf of a homologation CC-e draws SEM VALOR FISCAL first, and renders the same bytes twice', async (t) => {
  const v = buildDacceView(CCE.replace('<tpAmb>1</tpAmb>', '<tpAmb>2</tpAmb>'));
  const pdf = await renderDaccePdf(v, { compress: false });
  t.is(pdfText(pdf).split('\n')[0], 'SEM VALOR FISCAL');
  t.deepEqual(await renderDaccePdf(v), await renderDaccePdf(v));
});

test('renderDacceHtml shows the same fields and escapes the correction text', (t) => {
  const v = buildDacceView(CCE.replace(/<xCorrecao>[^<]*/, '<xCorrecao>Trocar &lt;b&gt;placa&lt;/b&gt; &amp; UF'), buildDanfeView(oneItemProc()));
  const html = renderDacceHtml(v);
  t.true(html.startsWith('<!DOCTYPE html>'));
  t.true(html.includes('Trocar &lt;b&gt;placa&lt;/b&gt; &amp; UF'));
  t.false(html.includes('<b>placa</b>'));
  for (const s of [groupAccessKey(KEY), '353180043800804', 'COMERCIO DE TESTES LTDA', 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL', '<svg']) t.true(html.includes(s), s);
  t.false(html.includes('class="mark"'));
});

import test from 'ava';
import { buildDanfseView, type DanfseView } from '../../../lib/danfse/view-model.js';
import { renderDanfseHtml } from '../../../lib/danfse/html.js';
import { renderDanfsePdf } from '../../../lib/danfse/pdf.js';
import { danfseMarks, danfseSections, identificacao } from '../../../lib/danfse/rows.js';
import { esc } from '../../../lib/danfe/html.js';
import { pdfText } from '../../support/danfe-notes.js';
import { fullNfse, realNfse } from '../../support/danfse-notes.js';

test('buildDanfseView reads the whole real NFS-e Sefin Nacional issued (homologation, Pacajá)', (t) => {
  const noParty = null;
  t.deepEqual(buildDanfseView(realNfse()), {
    chaveAcesso: '15054862231305199000190000000000000225121645026250', numero: '2', dhProc: '2025-12-03T09:51:59-03:00', dhEmi: '2025-12-03T09:51:58-03:00',
    competencia: '2025-12-03', serie: '900', nDPS: '3', homologacao: true, cancelada: false,
    consultaUrl: 'https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=15054862231305199000190000000000000225121645026250',
    municipioEmissor: 'Pacajá - PA',
    emitente: {
      nome: 'DINAMARQUES T SANTOS', documento: '31305199000190', im: '2348', endereco: 'RUA INÊS SOARES, 0, CENTRO', municipio: 'Pacajá - PA', cep: '68485000',
      fone: '91991050544', email: 'clinicaelaboratoriodrsantos@hotmail.com',
      simplesNacional: 'Optante - Microempresa ou Empresa de Pequeno Porte (ME/EPP)',
      regimeApuracaoSN: 'Tributos federais pelo SN e ISSQN por fora do SN, conforme a legislação municipal',
    },
    tomador: { nome: 'TOMADOR FICTICIO DE TESTE', documento: '11144477735', im: '9199', endereco: '', municipio: '', cep: '', fone: '91900000000', email: 'tomador@example.com' },
    intermediario: noParty,
    servico: {
      cTribNac: '040303', xTribNac: 'Clínicas, sanatórios, manicômios, casas de saúde, prontos-socorros, ambulatórios e congêneres.', cTribMun: '', xTribMun: '',
      localPrestacao: 'Pacajá', paisPrestacao: '', descricao: 'ultrassonografia',
    },
    tribMun: {
      tribISSQN: 'Operação tributável', paisResultado: '', municipioIncidencia: 'Pacajá', regimeEspecial: 'Nenhum', tipoImunidade: '', suspensao: 'Não',
      processoSuspensao: '', beneficioMunicipal: '', vServ: '230.00', vDescIncond: '', vDeducoes: '', vCalcBM: '', vBC: '230.00', pAliq: '5.00',
      retencao: 'Não retido', vISSQN: '11.50',
    },
    tribFed: { irrf: '', cp: '', contribSociais: '', descricaoContribSociais: '', pisProprio: '', cofinsProprio: '' },
    valores: { vServ: '230.00', vDescCond: '', vDescIncond: '', issqnRetido: '', retencoesFederais: '', pisCofinsProprio: '', vLiq: '230.00' },
    totTrib: { tipo: 'simples', federais: '', estaduais: '', municipais: '', simples: '5.00' },
    informacoesComplementares: '',
  });
});

test('buildDanfseView reads intermediary, discounts, ISS withheld, federal withholdings and PIS/COFINS of own calculation', (t) => {
  const v = buildDanfseView(fullNfse());
  t.deepEqual(v.intermediario, {
    nome: 'BETA INTERMEDIACAO DE SERVICOS LTDA', documento: '11444777000161', im: '987654', endereco: 'AVENIDA RIO BRANCO, 156, SALA 1201, CENTRO',
    municipio: 'Rio de Janeiro - RJ', cep: '20040020', fone: '2133334444', email: 'fiscal@beta.example.com',
  });
  t.like(v.tomador, { nome: 'FULANO DE TAL DA SILVA', municipio: 'São Paulo - SP', fone: '11988887777' });
  t.like(v.tribMun, { retencao: 'Retido pelo tomador', vBC: '1470.00', vISSQN: '29.40', vDescIncond: '30.00' });
  // tpRetPisCofins 8: PIS/COFINS not withheld (the provider's own debit), CSLL withheld.
  t.deepEqual(v.tribFed, { irrf: '22.50', cp: '165.00', contribSociais: '15.00', descricaoContribSociais: 'PIS/COFINS não retidos, CSLL retido', pisProprio: '9.56', cofinsProprio: '44.10' });
  t.deepEqual(v.valores, { vServ: '1500.00', vDescCond: '20.00', vDescIncond: '30.00', issqnRetido: '29.40', retencoesFederais: '202.50', pisCofinsProprio: '53.66', vLiq: '1218.10' });
  t.deepEqual(v.totTrib, { tipo: 'valor', federais: '200.00', estaduais: '0.00', municipais: '30.00', simples: '' });
  // PIS and COFINS withheld (tpRetPisCofins 3) are no longer a debit of the provider's own calculation.
  const withheld = buildDanfseView(fullNfse().replace('<tpRetPisCofins>8</tpRetPisCofins>', '<tpRetPisCofins>3</tpRetPisCofins>'));
  t.like(withheld.tribFed, { pisProprio: '', cofinsProprio: '', descricaoContribSociais: 'PIS/COFINS/CSLL retidos' });
  t.is(withheld.valores.pisCofinsProprio, '');
});

const titles = (v: DanfseView) => danfseSections(v).map((s) => s.absent ?? s.title);

test('danfseSections: the blocks of the national layout in order; an absent taker or intermediary prints its "não identificado" line', (t) => {
  t.deepEqual(titles(buildDanfseView(fullNfse())), [
    'Emitente da NFS-e - Prestador do serviço', 'Tomador do serviço', 'Intermediário do serviço', 'Serviço prestado', 'Tributação municipal',
    'Tributação federal', 'Valor total da NFS-e', 'Totais aproximados dos tributos', 'Informações complementares',
  ]);
  const real = buildDanfseView(realNfse());
  t.deepEqual(titles({ ...real, tomador: null }).slice(1, 3), ['TOMADOR DO SERVIÇO NÃO IDENTIFICADO NA NFS-e', 'INTERMEDIÁRIO DO SERVIÇO NÃO IDENTIFICADO NA NFS-e']);
});

test('danfseSections: money as R$ with the Brazilian separators, "-" for what the XML does not carry', (t) => {
  const rowsOf = (v: DanfseView, title: string) => danfseSections(v).find((s) => s.title === title)!.rows.map((r) => r.map((f) => `${f.label}: ${f.value}`));
  t.deepEqual(rowsOf(buildDanfseView(fullNfse()), 'Valor total da NFS-e'), [
    ['Valor do serviço: R$ 1.500,00', 'Desconto condicionado: R$ 20,00', 'Desconto incondicionado: R$ 30,00', 'ISSQN retido: R$ 29,40'],
    ['Total das retenções federais: R$ 202,50', 'PIS/COFINS - débito apur. própria: R$ 53,66', 'Valor líquido da NFS-e: R$ 1.218,10'],
  ]);
  const real = buildDanfseView(realNfse());
  t.deepEqual(rowsOf(real, 'Tributação federal'), [
    ['IRRF: -', 'Contribuição previdenciária - retida: -', 'Contribuições sociais - retidas: -', 'Descrição contrib. sociais - retidas: -'],
    ['PIS - débito apuração própria: -', 'COFINS - débito apuração própria: -'],
  ]);
  t.deepEqual(rowsOf(real, 'Totais aproximados dos tributos'), [['Percentual aproximado dos tributos do Simples Nacional: 5,00%']]);
  t.deepEqual(identificacao(real).map((r) => r.map((f) => f.value)), [
    ['15054862231305199000190000000000000225121645026250'], ['2', '03/12/2025', '03/12/2025 09:51:59'], ['3', '900', '03/12/2025 09:51:58'],
  ]);
  // Grid: the identification's three columns beside the QR code, four columns in every block.
  t.deepEqual(identificacao(real).map((r) => r.reduce((n, f) => n + f.span, 0)), [3, 3, 3]);
  for (const v of [real, buildDanfseView(fullNfse())]) {
    for (const row of danfseSections(v).flatMap((s) => s.rows)) t.is(row.reduce((n, f) => n + f.span, 0), 4, row.map((f) => f.label).join(' | '));
  }
});

test('danfseMarks: cancelled and homologation, as the NF-e DANFE marks them', (t) => {
  const v = buildDanfseView(realNfse(), { cancelada: true });
  t.deepEqual(danfseMarks(v), [{ text: 'CANCELADA', sub: null }, { text: 'SEM VALIDADE JURÍDICA', sub: 'NFS-e EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO' }]);
  t.deepEqual(danfseMarks(buildDanfseView(fullNfse())), []);
});

/** Every label and value the blocks hold, so both renderers can be checked against the same list. */
function everyText(v: DanfseView): string[] {
  const fields = [...identificacao(v), ...danfseSections(v).flatMap((s) => s.rows)].flat();
  return [...fields.flatMap((f) => [f.label, f.value]).filter(Boolean), ...danfseSections(v).map((s) => s.absent ?? s.title)];
}

test('renderDanfseHtml shows every label and value of the blocks, escaped, with the QR code and the marks', (t) => {
  const v = buildDanfseView(fullNfse());
  const html = renderDanfseHtml(v);
  for (const s of everyText(v)) t.true(html.includes(esc(s)), s);
  t.regex(html, /<td class="qr" rowspan="3"><svg[^>]*aria-label="QR Code de consulta da NFS-e"/);
  t.false(html.includes('class="mark"'));
  const hostile = renderDanfseHtml({ ...v, servico: { ...v.servico, descricao: 'A & B <script>' } });
  t.true(hostile.includes('A &amp; B &lt;script&gt;'));
  t.false(hostile.includes('<script>'));
  const marked = renderDanfseHtml(buildDanfseView(realNfse(), { cancelada: true }));
  t.true(marked.includes('<div class="mark">CANCELADA</div><div class="mark long" style="top:65%">SEM VALIDADE JURÍDICA<small>NFS-e EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO</small></div>'));
  t.true(marked.includes('<div class="hom">NFS-e SEM VALIDADE JURÍDICA</div>'));
});

test('renderDanfsePdf: one A4 sheet with the same labels and values as the HTML', async (t) => {
  for (const v of [buildDanfseView(fullNfse()), buildDanfseView(realNfse(), { cancelada: true })]) {
    const pdf = await renderDanfsePdf(v, { compress: false });
    t.is(pdf.subarray(0, 5).toString(), '%PDF-');
    t.is((pdf.toString('latin1').match(/\/MediaBox \[0 0 595\.28 841\.89\]/g) ?? []).length, 1);
    // Values wrap over lines: compared without whitespace; titles are drawn in upper case.
    const text = pdfText(pdf).replace(/\s+/g, '');
    for (const s of ['DANFSe v1.0', 'Documento Auxiliar da NFS-e', ...everyText(v)]) {
      t.true(text.includes(s.replace(/\s+/g, '')) || text.includes(s.toUpperCase().replace(/\s+/g, '')), s);
    }
  }
});

test('buildDanfseView refuses what is not an NFS-e', (t) => {
  t.throws(() => buildDanfseView('<NFe xmlns="http://www.portalfiscal.inf.br/nfe"/>'), { message: /not an NFS-e/ });
  t.throws(() => buildDanfseView('<NFSe xmlns="http://www.sped.fazenda.gov.br/nfse"/>'), { message: /infNFSe\/DPS\/infDPS missing/ });
  t.throws(() => buildDanfseView('<<'), { message: /malformed XML/ });
});

test('renderDanfsePdf: a block that does not fit continues on a second sheet that names the NFS-e', async (t) => {
  const v = buildDanfseView(fullNfse());
  const long = { ...v, servico: { ...v.servico, descricao: 'Descrição longa do serviço prestado. '.repeat(54) }, informacoesComplementares: 'Informação complementar extensa. '.repeat(60) };
  const pdf = await renderDanfsePdf(long, { compress: false });
  t.is((pdf.toString('latin1').match(/\/MediaBox \[0 0 595\.28 841\.89\]/g) ?? []).length, 2);
  const text = pdfText(pdf);
  t.true(text.includes(`DANFSe v1.0 - continuação (folha 2) - NFS-e nº 123 - chave de acesso ${v.chaveAcesso}`));
  // The whole complementary text is printed (nothing cut), after the continuation line.
  t.true(text.replace(/\s+/g, '').includes(long.informacoesComplementares.replace(/\s+/g, '')));
  t.true(text.indexOf('continuação (folha 2)') < text.indexOf('INFORMAÇÕES COMPLEMENTARES'));
});

test('buildDanfseView: a taker abroad shows the NIF and the foreign address (city, region, country, postal code)', (t) => {
  const abroad = fullNfse().replace(/<toma>[\s\S]*?<\/toma>/, '<toma><NIF>DE123456789</NIF><xNome>GAMMA GMBH</xNome><end><endExt><cPais>DE</cPais><cEndPost>10115</cEndPost>'
    + '<xCidade>Berlin</xCidade><xEstProvReg>Berlin</xEstProvReg></endExt><xLgr>Invalidenstrasse</xLgr><nro>117</nro><xBairro>Mitte</xBairro></end></toma>');
  t.deepEqual(buildDanfseView(abroad).tomador, {
    nome: 'GAMMA GMBH', documento: 'DE123456789', im: '', endereco: 'Invalidenstrasse, 117, Mitte', municipio: 'Berlin - Berlin - DE', cep: '10115', fone: '', email: '',
  });
});

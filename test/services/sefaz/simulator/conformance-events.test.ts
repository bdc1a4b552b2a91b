import test from 'ava';
import type { ExecutionContext } from 'ava';
import {
  aNote, consSit, consStat, enviNFe, envelope12, envEvento, inutNFe, lastTag, resultOf, startConformanceSim, tag, type ConformanceSim,
} from '../../../support/simulator-conformance.js';
import type { EventDetail } from '../../../../lib/sefaz/messages.js';

/**
 * Issue 19, the rejections of events, inutilização, status and consult: one test per code, raw
 * messages over mTLS to SP's own paths, asserting cStat, verbatim xMotivo and the ret* against the
 * official XSD. Tests that move the simulator's clock run serially.
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const HOST = { host: 'homologacao.nfe.fazenda.sp.gov.br' };
const HOUR = 3_600_000;
const JUST = 'Pedido cancelado pelo cliente';

async function authorized(): Promise<{ accessKey: string; nProt: string }> {
  const note = aNote(c);
  const r = resultOf(await c.post('/ws/nfeautorizacao4.asmx', envelope12('NFeAutorizacao4', enviNFe(note.xml)), HOST), 'retEnviNFe');
  if (lastTag(r.xml, 'cStat') !== '100') throw new Error(r.xml);
  return { accessKey: note.accessKey, nProt: lastTag(r.xml, 'nProt')! };
}

async function event(o: Parameters<typeof envEvento>[1]) {
  return resultOf(await c.post('/ws/nferecepcaoevento4.asmx', envelope12('NFeRecepcaoEvento4', await envEvento(c, o)), HOST), 'retEnvEvento');
}

function eventAnswer(t: ExecutionContext, r: Awaited<ReturnType<typeof event>>, cStat: string, xMotivo: string) {
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), '128', 'the batch is processed');
  t.is(lastTag(r.xml, 'cStat'), cStat);
  t.is(lastTag(r.xml, 'xMotivo'), xMotivo);
}

const cancel = (n: { nProt: string }, justificativa = JUST): EventDetail => ({ type: 'cancelamento', protocol: n.nProt, justificativa });
const cce: EventDetail = { type: 'cce', correcao: 'Endereco de entrega: Rua das Flores, 123' };

test.serial('135: a cancellation within the window; the answer has no Id on infEvento, no xEvento, SP\'s protocol', async (t) => {
  const n = await authorized();
  const r = await event({ accessKey: n.accessKey, detail: cancel(n) });
  eventAnswer(t, r, '135', 'Evento registrado e vinculado a NF-e');
  t.regex(r.xml, /<retEvento versao="1.00"><infEvento><tpAmb>2<\/tpAmb>/);
  t.notRegex(r.xml, /xEvento/);
  t.regex(lastTag(r.xml, 'nProt')!, /^135\d{12}$/);
});

test.serial('220: a cancellation after the UF\'s 24 h window and before 7 days', async (t) => {
  const n = await authorized();
  const start = c.clock.now;
  c.clock.now = new Date(start.getTime() + 25 * HOUR);
  try {
    eventAnswer(t, await event({ accessKey: n.accessKey, detail: cancel(n) }), '220', 'Rejeição: Prazo de Cancelamento superior ao previsto na Legislação');
  } finally { c.clock.now = start; }
});

test.serial('501: a cancellation more than 7 days after authorization', async (t) => {
  const n = await authorized();
  const start = c.clock.now;
  c.clock.now = new Date(start.getTime() + 8 * 24 * HOUR);
  try {
    eventAnswer(t, await event({ accessKey: n.accessKey, detail: cancel(n) }), '501', 'Rejeição: Pedido de Cancelamento intempestivo (NF-e autorizada a mais de 7 dias)');
  } finally { c.clock.now = start; }
});

test.serial('573 before 218: the same cancellation twice is a duplicate event; another sequence on a canceled note is 218', async (t) => {
  const n = await authorized();
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cancel(n) }), '135', 'Evento registrado e vinculado a NF-e');
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cancel(n) }), '573', 'Rejeição: Duplicidade de Evento');
  const r = await event({ accessKey: n.accessKey, detail: cancel(n), sequence: 2 });
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(lastTag(r.xml, 'cStat'), '218');
  t.regex(lastTag(r.xml, 'xMotivo')!, /^Rejeição: NF-e já está cancelada na base de dados da SEFAZ \[nRec:\d{15}\]$/);
});

test.serial('577: an event dated before the note\'s emission', async (t) => {
  const n = await authorized();
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cce, at: new Date(c.clock.now.getTime() - HOUR) }), '577', 'Rejeição: A data do evento não pode ser menor que a data de emissão da NF-e');
});

test.serial('578: an event dated in the future', async (t) => {
  const n = await authorized();
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cce, at: new Date(c.clock.now.getTime() + HOUR) }), '578', 'Rejeição: A data do evento não pode ser maior que a data do processamento');
});

test.serial('222: a cancellation naming another protocol', async (t) => {
  const n = await authorized();
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cancel({ nProt: '135000000000001' }) }), '222', 'Rejeição: Protocolo de Autorização de Uso difere do cadastrado');
});

test.serial('252 and 226 on events: a production event, an event for another UF\'s authority', async (t) => {
  const n = await authorized();
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cce, ambiente: 1 }), '252', 'Rejeição: Ambiente informado diverge do Ambiente de recebimento');
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cce, cOrgao: '31' }), '226', 'Rejeição: Código da UF do Emitente diverge da UF autorizadora');
});

test.serial('494: an event for a key the authority does not have', async (t) => {
  const n = aNote(c);
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cce }), '494', 'Rejeição: Chave de Acesso inexistente');
});

test.serial('rejection on demand for events: SIMULAR_REJEICAO in xJust', async (t) => {
  const n = await authorized();
  eventAnswer(t, await event({ accessKey: n.accessKey, detail: cancel(n, 'Teste SIMULAR_REJEICAO:490 de rejeicao') }), '490', 'Rejeição: CPF informado inválido (DV ou zeros)');
});

async function inut(o: Parameters<typeof inutNFe>[1]) {
  return resultOf(await c.post('/ws/nfeinutilizacao4.asmx', envelope12('NFeInutilizacao4', await inutNFe(c, o)), HOST), 'retInutNFe');
}

function inutAnswer(t: ExecutionContext, r: Awaited<ReturnType<typeof inut>>, cStat: string, xMotivo: string) {
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), cStat);
  t.is(tag(r.xml, 'xMotivo'), xMotivo);
  t.is(tag(r.xml, 'tpAmb'), '2');
}

test.serial('102 without Id on infInut; 224 a range whose start is after its end; 252 production', async (t) => {
  const ok = await inut({ serie: 50, inicio: 1, fim: 2 });
  inutAnswer(t, ok, '102', 'Inutilização de número homologado');
  t.regex(ok.xml, /<infInut><tpAmb>2<\/tpAmb>/);
  inutAnswer(t, await inut({ serie: 51, inicio: 5, fim: 3 }), '224', 'Rejeição: A faixa inicial é maior que a faixa final');
  inutAnswer(t, await inut({ serie: 52, inicio: 1, fim: 1, ambiente: 1 }), '252', 'Rejeição: Ambiente informado diverge do Ambiente de recebimento');
  inutAnswer(t, await inut({ serie: 53, inicio: 1, fim: 1, cUF: '31' }), '226', 'Rejeição: Código da UF do Emitente diverge da UF autorizadora');
  inutAnswer(t, await inut({ serie: 54, inicio: 1, fim: 1, justificativa: 'Teste SIMULAR_REJEICAO:245 de rejeicao' }), '245', 'Rejeição: CNPJ Emitente não cadastrado');
});

test.serial('status: 252 for production, 215 for a message that fails its schema', async (t) => {
  const prod = resultOf(await c.post('/ws/nfestatusservico4.asmx', envelope12('NFeStatusServico4', consStat('35', 1)), HOST), 'retConsStatServ');
  t.deepEqual(prod.xsd, { valid: true, errors: [] });
  t.like({ cStat: tag(prod.xml, 'cStat'), xMotivo: tag(prod.xml, 'xMotivo'), tpAmb: tag(prod.xml, 'tpAmb') },
    { cStat: '252', xMotivo: 'Rejeição: Ambiente informado diverge do Ambiente de recebimento', tpAmb: '2' });
  const broken = resultOf(await c.post('/ws/nfestatusservico4.asmx', envelope12('NFeStatusServico4', consStat('35').replace('<xServ>STATUS</xServ>', '')), HOST), 'retConsStatServ');
  t.deepEqual(broken.xsd, { valid: true, errors: [] });
  t.is(tag(broken.xml, 'cStat'), '215');
  t.is(tag(broken.xml, 'xMotivo'), 'Rejeição: Falha no schema XML');
});

test.serial('consult: 100 with the protocol, 217 for an unknown key', async (t) => {
  const n = await authorized();
  const found = resultOf(await c.post('/ws/nfeconsultaprotocolo4.asmx', envelope12('NFeConsultaProtocolo4', consSit(n.accessKey)), HOST), 'retConsSitNFe');
  t.deepEqual(found.xsd, { valid: true, errors: [] });
  t.is(tag(found.xml, 'cStat'), '100');
  t.is(lastTag(found.xml, 'nProt'), n.nProt);
  const unknown = resultOf(await c.post('/ws/nfeconsultaprotocolo4.asmx', envelope12('NFeConsultaProtocolo4', consSit(aNote(c).accessKey)), HOST), 'retConsSitNFe');
  t.is(tag(unknown.xml, 'cStat'), '217');
  t.is(tag(unknown.xml, 'xMotivo'), 'Rejeição: NF-e não consta na base de dados da SEFAZ');
});

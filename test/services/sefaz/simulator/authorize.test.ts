import test from 'ava';
import { buildConsReciNFe, buildEnviNFe } from '../../../../lib/sefaz/messages.js';
import { aNote, envelope12, lastTag, resultOf, startConformanceSim, tag, type ConformanceSim } from '../../../support/simulator-conformance.js';

/**
 * NFeAutorizacao4's round trips to its database (issue 18): a batch of one note that passes every
 * rule costs one statement, synchronous or not; the answers are those of the conformance tests.
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const SP = { host: 'homologacao.nfe.fazenda.sp.gov.br' };

async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const on = (q: { sql: string }) => statements.push(q.sql);
  c.knex.on('query', on);
  try {
    return { result: await fn(), statements };
  } finally {
    c.knex.off('query', on);
  }
}

const authorize = (xml: string, sync: boolean) => c.post('/ws/nfeautorizacao4.asmx', envelope12('NFeAutorizacao4', buildEnviNFe({ idLote: '1', signedNfeXml: xml, sync })), SP)
  .then((a) => resultOf(a, 'retEnviNFe'));

test.serial('a synchronous batch of one note is authorized in one database statement', async (t) => {
  const note = aNote(c);
  const { result, statements } = await counted(() => authorize(note.xml, true));
  t.deepEqual(result.xsd, { valid: true, errors: [] });
  t.is(lastTag(result.xml, 'cStat'), '100');
  t.regex(lastTag(result.xml, 'nProt')!, /^135\d{12}$/);
  t.is(statements.length, 1);
  const row = await c.knex('simulator.notes').where({ access_key: note.accessKey }).first();
  t.is(row.protocol, lastTag(result.xml, 'nProt'));
  t.is(row.prot_xml, /<protNFe[\s\S]*<\/protNFe>/.exec(result.xml)![0]);
});

test.serial('an asynchronous batch of one note is authorized, its receipt written, in one database statement', async (t) => {
  const note = aNote(c);
  const { result, statements } = await counted(() => authorize(note.xml, false));
  t.is(tag(result.xml, 'cStat'), '103');
  t.is(statements.length, 1);
  const nRec = tag(result.xml, 'nRec')!;
  const answer = resultOf(await c.post('/ws/nferetautorizacao4.asmx', envelope12('NFeRetAutorizacao4', buildConsReciNFe({ ambiente: 2, receipt: nRec })), SP), 'retConsReciNFe');
  t.deepEqual(answer.xsd, { valid: true, errors: [] });
  t.is(tag(answer.xml, 'cStat'), '104');
  t.is(lastTag(answer.xml, 'cStat'), '100');
  t.is(lastTag(answer.xml, 'chNFe'), note.accessKey);
});

test.serial('an asynchronous duplicate still answers its receipt with the 204 refusal', async (t) => {
  const note = aNote(c);
  t.is(lastTag((await authorize(note.xml, true)).xml, 'cStat'), '100');
  const again = await authorize(note.xml, false);
  t.is(tag(again.xml, 'cStat'), '103');
  const answer = resultOf(await c.post('/ws/nferetautorizacao4.asmx', envelope12('NFeRetAutorizacao4', buildConsReciNFe({ ambiente: 2, receipt: tag(again.xml, 'nRec')! })), SP), 'retConsReciNFe');
  t.is(lastTag(answer.xml, 'cStat'), '204');
  t.regex(lastTag(answer.xml, 'xMotivo')!, /^Rejeição: Duplicidade de NF-e \[nRec:\d{15}\]$/);
});

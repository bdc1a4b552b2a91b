import test from 'ava';
import { threadId } from 'node:worker_threads';
import { DomainError } from '../../../lib/errors/index.js';
import type { BuildContext, DocumentPipeline } from '../../../lib/emission/pipeline.js';
import type { CheckedNote } from '../../../lib/nfe/types.js';
import { DraftPool } from '../../../services/emission/draft-pool.js';
import { realPipeline } from '../../../services/emission/pipeline-binding.js';
import { aNfce, aNfe, anIssuer, anItem, testSigningMaterial, totalsOf } from '../../support/checked-note-factories.js';

/**
 * A large note's draft (build + XSD) runs in a worker thread (services/emission/draft-pool.ts):
 * byte for byte the event loop's draft, with its refusals, and a small note's stays on the loop.
 */
const material = testSigningMaterial();
const items = (n: number, cfop = '5102') => Array.from({ length: n }, (_, i) => anItem({ codigo: `P${i + 1}`, cfop }));
const contextOf = (note: CheckedNote, over: Partial<BuildContext> = {}): BuildContext => ({
  issuer: anIssuer(), model: note.model, series: 1, number: 999_999_999, cnf: '11111111', tpEmis: 1, emittedAt: new Date('2026-11-27T10:00:00-03:00'), ambiente: 2, ...over,
});
const draftOf = async (pipeline: DocumentPipeline, note: CheckedNote, ctx = contextOf(note), steps?: string[]) =>
  pipeline.draft(note, totalsOf(note), ctx, material, steps && ((s) => steps.push(s)));

test('a note of at least minItems is drafted in a thread, byte for byte as on the loop; a smaller one on the loop', async (t) => {
  const pool = new DraftPool({ threads: 1, minItems: 20 });
  t.teardown(() => pool.destroy());
  const pooled = pool.around(realPipeline);
  for (const note of [aNfe(items(20)), aNfce(items(60))]) {
    const steps: string[] = [];
    t.deepEqual(await draftOf(pooled, note, contextOf(note), steps), await draftOf(realPipeline, note));
    t.deepEqual(steps, ['draft']);
  }
  t.is(pool.drafted.count, 2);
  t.false(pool.drafted.threadIds.has(threadId), 'not this thread');
  const steps: string[] = [];
  const small = aNfe(items(19));
  t.deepEqual(await draftOf(pooled, small, contextOf(small), steps), await draftOf(realPipeline, small));
  t.deepEqual(steps, ['build', 'xsd'], 'drafted on the loop');
  t.is(pool.drafted.count, 2);
});

test('a pooled draft finishes into the note buildSignedNfe writes for the number claimed', async (t) => {
  const pool = new DraftPool({ threads: 1, minItems: 2 });
  t.teardown(() => pool.destroy());
  const note = aNfe(items(30));
  const draft = await draftOf(pool.around(realPipeline), note);
  const finished = await realPipeline.finish(draft, 57, '87654321', material);
  t.deepEqual(finished, await realPipeline.build(note, totalsOf(note), contextOf(note, { number: 57, cnf: '87654321' }), material));
});

test('a refusal in the thread is the loop\'s own: type, data and message, before any number', async (t) => {
  const pool = new DraftPool({ threads: 1, minItems: 2 });
  t.teardown(() => pool.destroy());
  const bad = aNfe(items(5), { naturezaOperacao: ' leading space breaks TString' });
  const onLoop = await t.throwsAsync(async () => draftOf(realPipeline, bad), { instanceOf: DomainError });
  const inThread = await t.throwsAsync(async () => draftOf(pool.around(realPipeline), bad), { instanceOf: DomainError });
  t.is(inThread!.type, 'XML_FORA_DO_ESQUEMA');
  t.deepEqual([inThread!.type, inThread!.data, inThread!.message, inThread!.code], [onLoop!.type, onLoop!.data, onLoop!.message, onLoop!.code]);
  const nfce = aNfce(items(5));
  const csc = await t.throwsAsync(async () => draftOf(pool.around(realPipeline), nfce, contextOf(nfce, { issuer: anIssuer({ csc: null, cscId: null }) })), { instanceOf: DomainError });
  t.is(csc!.type, 'CSC_AUSENTE');
});

test('an issuer with too many large notes waiting is refused 503 EMISSOR_SOBRECARREGADO at once, another issuer still waits its turn; a full node is 503 SERVICE_UNAVAILABLE', async (t) => {
  const pool = new DraftPool({ threads: 1, minItems: 2, maxQueue: 2, maxQueuePerIssuer: 1 });
  t.teardown(() => pool.destroy());
  const pooled = pool.around(realPipeline);
  const note = aNfe(items(40));
  const other = (id: string) => contextOf(note, { issuer: anIssuer({ id }) });
  const [running, waiting, refused, another, full] = await Promise.allSettled([
    draftOf(pooled, note), draftOf(pooled, note), draftOf(pooled, note), draftOf(pooled, note, other('iss_2')), draftOf(pooled, note, other('iss_3')),
  ]);
  t.deepEqual([running.status, waiting.status, another.status], ['fulfilled', 'fulfilled', 'fulfilled']);
  const issuerBound = (refused as PromiseRejectedResult).reason as DomainError;
  t.deepEqual([issuerBound.type, issuerBound.code, issuerBound.data], ['EMISSOR_SOBRECARREGADO', 503, { issuerId: 'iss_1', motivo: 'queue-full' }]);
  const nodeBound = (full as PromiseRejectedResult).reason as DomainError;
  t.deepEqual([nodeBound.type, nodeBound.code, nodeBound.message], ['SERVICE_UNAVAILABLE', 503, 'Montagem de notas grandes ocupada neste momento; tente novamente.']);
});

test('a stand-in pipeline (a test of the state machine) keeps its own drafts', (t) => {
  const pool = new DraftPool({ threads: 1, minItems: 1 });
  const standIn: DocumentPipeline = { ...realPipeline };
  t.is(pool.around(standIn), standIn);
});

import test from 'ava';
import { migratedBefore } from '../../support/migration-db.js';
import { migrateSchema } from '../../../services/shared/migrations.js';
import { migrations } from '../../../migrations/classification/index.js';
import { defaultTable } from '../../../services/classification/default-tables.js';

test('061 gives the classes of stored table versions the ind_g* group flags they were loaded without', async (t) => {
  const { knex } = await migratedBefore(t, 'classification', migrations, '061_class_group_flags');
  const shipped = defaultTable();
  // As the parser stored them before the flags were read: no `grupos`; 999999 is a code the shipped publication lacks.
  const { grupos: _, ...unknown } = { ...shipped.classes[0]!, cClassTrib: '999999' };
  const old = { ...shipped, classes: [...shipped.classes.map(({ grupos: _g, ...c }) => c), unknown] };
  const current = { ...shipped, versao: 'ja-com-grupos', classes: shipped.classes.map((c) => (c.cClassTrib === '550001' ? { ...c, grupos: [] } : c)) };
  const row = (versao: string, content: unknown, at: string) => ({ versao, content: JSON.stringify(content), classes: 1, anexos: 1, loaded_by: 'x', loaded_at: at });
  await knex('classification.class_table_versions').insert([row('2026-06-01', old, '2026-07-01T00:00:00Z'), row('ja-com-grupos', current, '2026-07-02T00:00:00Z')]);

  t.deepEqual(await migrateSchema(knex, 'classification', migrations), ['061_class_group_flags']);
  const classes = async (versao: string) => (await knex('classification.class_table_versions').where({ versao }).first('content')).content.classes as { cClassTrib: string; grupos: string[] }[];
  const grupos = (list: { cClassTrib: string; grupos: string[] }[], code: string) => list.find((c) => c.cClassTrib === code)!.grupos;
  const filled = await classes('2026-06-01');
  t.deepEqual(['000001', '550001', '410014', '620002', '999999'].map((c) => grupos(filled, c)), [[], ['gTribRegular'], ['gCredPresOper'], ['gMonoPadrao', 'gMonoReten'], []]);
  t.deepEqual(grupos(await classes('ja-com-grupos'), '550001'), [], 'a version loaded with its flags is left as loaded');
});

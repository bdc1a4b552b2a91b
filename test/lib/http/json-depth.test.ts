import test from 'ava';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../../lib/http/json-depth.js';

const nested = (depth: number, asArray = false): unknown => JSON.parse(asArray ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

test('jsonDepthExceeds counts object and array levels and allows exactly the maximum', (t) => {
  t.false(jsonDepthExceeds(nested(MAX_JSON_DEPTH)));
  t.true(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1)));
  t.true(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1, true)));
  t.false(jsonDepthExceeds({ notas: [{ items: [{ icms: { cst: '00' } }] }] }));
  t.false(jsonDepthExceeds('texto'));
  t.false(jsonDepthExceeds(null));
});

test('jsonDepthExceeds survives 100 000 levels (no recursion)', (t) => {
  t.true(jsonDepthExceeds(nested(100_000)));
});

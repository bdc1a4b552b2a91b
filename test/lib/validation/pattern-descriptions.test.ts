import test from 'ava';
import { describePattern, patternMessage, withPatternMessages } from '../../../lib/validation/pattern-descriptions.js';
import { createValidator } from '../../../lib/validation/validator.js';
import { nfeBodySchema } from '../../../lib/nfe/schema.js';
import { aValidNfeBody } from '../../support/nfe-factories.js';

test('describePattern reads digit counts and their alternations in words', (t) => {
  t.is(describePattern(/^(?:\d{2}|\d{8})$/), 'ter 2 ou 8 dígitos');
  t.is(describePattern(/^(\d{11}|\d{14})$/), 'ter 11 ou 14 dígitos');
  t.is(describePattern(/^\d{44}$/), 'ter 44 dígitos');
  t.is(describePattern(/^\d{1,6}$/), 'ter de 1 a 6 dígitos');
  t.is(describePattern(/^\d+$/), 'conter só dígitos');
  t.is(describePattern(/^[A-Z]{2}$/), 'ser a sigla da UF em 2 letras maiúsculas');
  t.is(describePattern(/^q+$/), undefined);
});

test('patternMessage never prints the expression, even for a pattern it cannot describe', (t) => {
  t.is(patternMessage(/^q+$/), "O campo '{field}' não está no formato esperado.");
  t.is(patternMessage('^\\d{8}$'), "O campo '{field}' deve ter 8 dígitos.");
});

test('withPatternMessages keeps a rule\'s own stringPattern message and reaches nested props, items and multi rules', (t) => {
  const own = { type: 'string', pattern: /^\d{2}$/, messages: { stringPattern: 'próprio' } };
  const out: any = withPatternMessages({ a: own, b: { type: 'array', items: { type: 'object', props: { c: { type: 'string', pattern: /^\d{3}$/ } } } }, d: { type: 'multi', rules: [{ type: 'string', pattern: /^\d{4}$/ }, 'number'] } });
  t.is(out.a.messages.stringPattern, 'próprio');
  t.is(out.b.items.props.c.messages.stringPattern, "O campo '{field}' deve ter 3 dígitos.");
  t.is(out.d.rules[0].messages.stringPattern, "O campo '{field}' deve ter 4 dígitos.");
  t.is(out.d.rules[1], 'number');
});

test('an NF-e item with a malformed NCM is refused in words, without the regular expression (issue 21, item 6)', (t) => {
  const body = aValidNfeBody();
  body.items[0].ncm = '123';
  const result = createValidator().compile(nfeBodySchema as any)(body) as any[];
  t.true(Array.isArray(result));
  t.deepEqual(result.map((e) => e.message), ["O campo 'items[0].ncm' deve ter 2 ou 8 dígitos."]);
});

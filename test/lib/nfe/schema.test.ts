import test from 'ava';
import { nfceBodySchema, nfeBatchBodySchema, nfeBodySchema } from '../../../lib/nfe/schema.js';

/** Every nested object rule, with its path, so strictness can be asserted at every depth. */
function objectRules(rule: any, path: string, out: [string, any][] = []): [string, any][] {
  if (!rule || typeof rule !== 'object') return out;
  if (rule.type === 'object') {
    out.push([path, rule]);
    for (const [k, v] of Object.entries(rule.props ?? {})) objectRules(v, `${path}.${k}`, out);
  }
  if (rule.type === 'array') objectRules(rule.items, `${path}[]`, out);
  return out;
}
const rootRules = (schema: Record<string, any>) =>
  Object.entries(schema).filter(([k]) => !k.startsWith('$$')).flatMap(([k, v]) => objectRules(v, k));

for (const [name, schema] of [['NF-e', nfeBodySchema], ['NFC-e', nfceBodySchema], ['batch', nfeBatchBodySchema]] as const) {
  test(`the ${name} schema is strict at the root and in every nested object`, (t) => {
    t.is((schema as any).$$strict, true);
    const rules = rootRules(schema);
    t.true(rules.length > (name === 'NF-e' || name === 'batch' ? 15 : 10));
    for (const [path, rule] of rules) t.is(rule.strict, true, path);
  });
}

test('every monetary field of the item is 13v2 and rates are 3v2-4', (t) => {
  const item = (nfeBodySchema.items as any).items.props;
  for (const f of ['valorTotal', 'desconto', 'valorFrete', 'valorSeguro', 'outrasDespesas']) t.like(item[f], { type: 'decimal', intDigits: 13, fracDigits: 2 }, f);
  t.like(item.quantidade, { type: 'decimal', intDigits: 11, fracDigits: 4 });
  t.like(item.valorUnitario, { type: 'decimal', intDigits: 11, fracDigits: 10 });
  for (const f of ['pICMS', 'pRedBC', 'pFCP', 'pMVAST', 'pICMSST', 'pCredSN']) t.like(item.icms.props[f], { type: 'decimal', intDigits: 3, fracDigits: 4 }, f);
  for (const f of ['vBC', 'vICMS', 'vICMSST', 'vFCPST', 'vICMSDeson']) t.like(item.icms.props[f], { type: 'decimal', intDigits: 13, fracDigits: 2 }, f);
});

test('the spec defaults are declared in the schema', (t) => {
  const s: any = nfeBodySchema;
  t.is(s.naturezaOperacao.default, 'Venda de Mercadoria');
  t.is(s.tpNF.default, 1);
  t.is(s.indPres.default, 1);
  t.is(s.finNFe.default, 1);
  t.is(s.destinatario.props.indicadorIE.default, 9);
  const item = s.items.items.props;
  t.is(item.ean.default, 'SEM GTIN');
  t.is(item.indTot.default, 1);
  t.is(item.ipi.props.cEnq.default, '999');
  t.is(item.ibsCbs.props.cst.default, '000');
  t.is(item.ibsCbs.props.cClassTrib.default, '000001');
  t.is((nfceBodySchema as any).indPres.default, 1);
  t.deepEqual((nfceBodySchema as any).indPres.values, [1, 2, 3, 4, 5, 9]);
});

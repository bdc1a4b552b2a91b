import test from 'ava';
import { propsToJsonSchema } from '../../../lib/http/openapi.js';
import { nfseBodySchema } from '../../../lib/nfse/schema.js';

function objectRules(rule: any, path: string, out: [string, any][] = []): [string, any][] {
  if (!rule || typeof rule !== 'object') return out;
  if (rule.type === 'object') {
    out.push([path, rule]);
    for (const [k, v] of Object.entries(rule.props ?? {})) objectRules(v, `${path}.${k}`, out);
  }
  return out;
}

test('the NFS-e schema is strict at the root and in every nested object', (t) => {
  t.is(nfseBodySchema.$$strict, true);
  const rules = Object.entries(nfseBodySchema).filter(([k]) => !k.startsWith('$$')).flatMap(([k, v]) => objectRules(v, k));
  t.deepEqual(rules.map(([p]) => p), ['rps', 'dpsNacional', 'tomador', 'tomador.endereco', 'servico', 'retencoes', 'ibsCbs', 'ibsCbs.gDif', 'ibsCbs.gTribRegular']);
  for (const [path, rule] of rules) t.is(rule.strict, true, path);
});

test('the spec names every top-level field, and every monetary field is TSDec15V2 (15v2, min 0)', (t) => {
  t.deepEqual(Object.keys(nfseBodySchema).filter((k) => !k.startsWith('$$')), [
    'issuerId', 'rps', 'serie', 'dpsNacional', 'naturezaOperacao', 'regimeTributacao', 'optanteSimples', 'exigibilidadeISS',
    'competencia', 'tomador', 'servico', 'retencoes', 'ibsCbs', 'informacoesComplementares', 'resolverTributacao',
  ]);
  const servico = (nfseBodySchema.servico as any).props;
  const retencoes = (nfseBodySchema.retencoes as any).props;
  for (const rule of [servico.valorServicos, servico.descontoIncondicionado, servico.descontoCondicionado, servico.valorDeducoes,
    retencoes.inss, retencoes.irrf, retencoes.csll, retencoes.pis, retencoes.cofins, retencoes.outrasRetencoes]) {
    t.like(rule, { type: 'decimal', intDigits: 15, fracDigits: 2, min: 0 });
  }
});

test('the NFS-e schema converts to an OpenAPI 3.1 object that refuses additional properties at every depth', (t) => {
  const json: any = propsToJsonSchema(nfseBodySchema as any);
  t.is(json.additionalProperties, false);
  t.deepEqual(json.required, ['issuerId', 'servico']);
  t.is(json.properties.tomador.properties.endereco.additionalProperties, false);
  t.is(json.properties.ibsCbs.properties.gDif.additionalProperties, false);
  t.like(json.properties.servico.properties.valorServicos, { type: 'number', multipleOf: 0.01, 'x-digits': '15v2', minimum: 0 });
  t.deepEqual(json.properties.dpsNacional.properties.tpRetISSQN, { enum: [1, 2, 3] });
  t.is(json.properties.serie.default, 1);
});

import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startStack, type Stack } from '../support/stack.js';
import { integratorWithA1 } from '../support/e2e.js';

/** Issue 21, item 4: integrators generate clients from /api-docs-json, so every emission body is in it. */
let stack: Stack;
test.before(async () => { stack = await startStack(); });
test.after.always(async () => { await stack?.stop(); });

test('POST /v1/nfe, /v1/nfce and /v1/nfe/batch document their whole request body, with examples the service authorizes (Location on the 201)', async (t) => {
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  const result = await new Validator().validate(doc);
  t.true(result.valid, JSON.stringify(result.errors)?.slice(0, 2000));
  const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'];
  const nfe = body('/v1/nfe');
  t.deepEqual(nfe.schema.required?.slice().sort(), ['destinatario', 'items', 'pagamentos']);
  t.is(nfe.schema.additionalProperties, false);
  t.is(nfe.schema.properties.items.maxItems, 990);
  t.truthy(nfe.schema.properties.items.items.properties.icms.properties.cst);
  t.is(nfe.example.destinatario.cnpjCpf, '52998224725');
  const nfce = body('/v1/nfce');
  t.truthy(nfce.schema.properties.destCPF);
  t.falsy(nfce.schema.properties.destinatario);
  t.is(nfce.example.pagamentos[0].valor, 100);
  const batch = body('/v1/nfe/batch');
  t.truthy(batch.schema.properties.notas.items.properties.destinatario);
  t.is(batch.example.notas.length, 2);
  // The document resource is one reusable schema (issue 21, item 4).
  t.deepEqual(doc.paths['/v1/nfe'].post.responses['201'].content['application/json'].schema.properties.data, { $ref: '#/components/schemas/Documento' });
  t.is(doc.components.schemas.Documento.properties.status.enum.includes('AUTHORIZED'), true);

  // The examples are real: the service authorizes them as they are.
  const { headers } = await integratorWithA1(stack, { crt: 3, csc: 'CSC0TESTE0SANDBOX0001', cscId: '000001' });
  for (const path of ['/v1/nfe', '/v1/nfce']) {
    const res = await stack.request('POST', path, { headers, body: body(path).example });
    t.is(res.status, 201, res.text);
    t.is(res.body.data.status, 'AUTHORIZED', res.text);
    // A 201 names what it created.
    t.is(res.headers.get('location'), `${path}/${res.body.data.id}`);
  }
});

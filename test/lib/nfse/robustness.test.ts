import test from 'ava';
import fc from 'fast-check';
import { DomainError } from '../../../lib/errors/index.js';
import { checkNfse } from '../../../lib/nfse/check.js';
import { buildSignedDps } from '../../../lib/nfse/document.js';
import { validateNfseBody } from '../../../lib/nfse/validate.js';
import { createSigner } from '../../../lib/sign/signer.js';
import { verifyXmlSignature } from '../../../lib/sign/verify.js';
import { testSigningMaterial } from '../../support/checked-note-factories.js';
import { aValidNfseBody, anNfseIssuer } from '../../support/nfse-factories.js';
import { aDpsContext, MES_ATUAL } from '../../support/nfse-scenarios.js';
import { verifyDfeFiles } from '../../support/verify-dfe.js';

const signer = createSigner(testSigningMaterial());

/** Latin-1 printable text without spaces at the ends (the layout's TSString). */
const latin1 = (max: number) => fc.string({ unit: fc.constantFrom(...'abcXYZ 0129&<>"\'çãéÜñ-/.,'.split('')), minLength: 1, maxLength: max })
  .map((s) => s.trim()).filter((s) => s.length > 0);
const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => c / 100);
const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const tomador = fc.record({
  cnpjCpf: fc.oneof(digits(11), digits(14)),
  razaoSocial: latin1(300),
  inscricaoMunicipal: opt(fc.stringMatching(/^[0-9A-Z]{1,15}$/)),
  email: opt(fc.constantFrom('a@b.com', 'financeiro@cliente.com.br')),
  telefone: opt(fc.stringMatching(/^\d{6,20}$/)),
  endereco: opt(fc.record({
    logradouro: latin1(255), numero: latin1(60), complemento: opt(latin1(156)), bairro: latin1(60),
    codigoMunicipio: digits(7), cep: digits(8),
  })),
}, { requiredKeys: ['cnpjCpf', 'razaoSocial'] });

/** A coherent body: no rps, rule 3/4 pairs agree, PIS/COFINS retention matches CSLL, no untagged retention. */
const validBody = fc.record({
  opSimpNac: fc.constantFrom(1, 2, 3),
  crt: fc.constantFrom(1, 2, 3, 4),
  regApTribSN: fc.constantFrom(1, 2, 3),
  regEspTrib: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 9),
  cTribNac: digits(6),
  cTribMun: opt(digits(3)),
  tribISSQN: fc.constantFrom(1, 2, 3, 4),
  tpRetISSQN: opt(fc.constantFrom(1, 2, 3)),
  cst: opt(fc.constantFrom('00', '01', '06', '49', '99')),
  tpRetPisCofins: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
  pTotTribSN: fc.integer({ min: 0, max: 9999 }).map((c) => c / 100),
  tomador: opt(tomador),
  valorServicos: cents(99999999999999),
  // xDescServ (TSDesc2000) takes any text with line breaks; only what XML 1.0 cannot carry is left out.
  // U+0085 and U+2028 are left to the test below: xmldom 0.8 (the parser of verifyXmlSignature, used
  // here) turns them into line feeds as XML 1.1 would, so it cannot check a DPS that carries them.
  discriminacao: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }).filter((s) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0085\u2028\uFFFE\uFFFF]/.test(s)),
  aliquotaIss: opt(fc.integer({ min: 0, max: 999 }).map((c) => c / 100)),
  descontoIncondicionado: opt(cents(10000000)),
  descontoCondicionado: opt(cents(10000000)),
  valorDeducoes: opt(cents(10000000)),
  codigoNBS: opt(digits(9)),
  inss: opt(cents(100000000)),
  irrf: opt(cents(100000000)),
  csll: cents(100000000),
  ibsCbs: opt(fc.record({
    cst: digits(3), cClassTrib: digits(6), cIndOp: digits(6), finNFSe: fc.constant(0), indDest: fc.constantFrom(0, 1),
    indFinal: opt(fc.constantFrom(0, 1)), cCredPres: opt(digits(2)), tpOper: opt(fc.constantFrom(1, 2, 3, 4, 5)), tpEnteGov: opt(fc.constantFrom(1, 2, 3, 4)),
    gDif: opt(fc.record({ pDifUF: cents(10000), pDifMun: cents(10000), pDifCBS: cents(10000) })),
    gTribRegular: opt(fc.record({ cstReg: digits(3), cClassTribReg: digits(6) })),
  })),
  informacoesComplementares: opt(latin1(2000)),
  serie: fc.integer({ min: 0, max: 99999 }),
  nDPS: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
}).map((g) => {
  const csllRetained = [3, 7, 8, 9].includes(g.tpRetPisCofins);
  const csllNotRetained = [0, 4, 5, 6].includes(g.tpRetPisCofins);
  const csll = csllRetained ? Math.max(g.csll, 0.01) : csllNotRetained ? 0 : g.csll;
  const strip = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(o));
  const body = strip({
    issuerId: '0b7c4a52-8f0e-4b8e-9a55-2f1d8e6c3a10',
    serie: g.serie,
    dpsNacional: {
      opSimpNac: g.opSimpNac, regApTribSN: g.crt === 2 ? g.regApTribSN : undefined, regEspTrib: g.regEspTrib, cTribNac: g.cTribNac, cTribMun: g.cTribMun,
      tribISSQN: g.tribISSQN, tpRetISSQN: g.tpRetISSQN, cstPisCofins: g.cst, tpRetPisCofins: g.cst ? g.tpRetPisCofins : undefined,
      pTotTribSN: g.opSimpNac === 3 ? g.pTotTribSN : undefined,
    },
    tomador: g.tomador,
    servico: {
      valorServicos: g.valorServicos, discriminacao: g.discriminacao, aliquotaIss: g.aliquotaIss, codigoNBS: g.codigoNBS,
      descontoIncondicionado: g.descontoIncondicionado, descontoCondicionado: g.descontoCondicionado, valorDeducoes: g.valorDeducoes,
    },
    retencoes: { inss: g.inss, irrf: g.irrf, csll: g.cst ? csll : g.csll, issRetidoPor: g.tpRetISSQN },
    ibsCbs: g.ibsCbs,
    informacoesComplementares: g.informacoesComplementares,
  });
  return { body, crt: g.crt, nDPS: g.nDPS % 999999999999999 + 1 };
});

test('property: every coherent random body validates, passes the rules and builds a signed, schema-valid DPS', (t) => {
  fc.assert(fc.property(validBody, ({ body, crt, nDPS }) => {
    const issuer = anNfseIssuer({ crt: crt as 1 | 2 | 3 | 4 });
    const { dps } = checkNfse(validateNfseBody(body), issuer, { mesAtual: MES_ATUAL });
    const doc = buildSignedDps(dps, aDpsContext(issuer, nDPS), signer); // throws XML_FORA_DO_ESQUEMA if not schema-valid
    return verifyXmlSignature(doc.xml, doc.id).valid;
  }), { numRuns: 150 });
  t.pass();
});

test('property: a sample of the random DPS also passes the independent verify-dfe.sh (xmllint + xmlsec1)', async (t) => {
  const samples: Record<string, string> = {};
  fc.sample(validBody, { numRuns: 20, seed: 42 }).forEach(({ body, crt, nDPS }, i) => {
    const issuer = anNfseIssuer({ crt: crt as 1 | 2 | 3 | 4 });
    samples[`random-${i}`] = buildSignedDps(checkNfse(validateNfseBody(body), issuer, { mesAtual: MES_ATUAL }).dps, aDpsContext(issuer, nDPS), signer).xml;
  });
  const result = await verifyDfeFiles(samples);
  t.true(result.ok, result.output);
});

test('a discriminacao with U+0085 or U+2028 is kept as XML 1.0 text and signed so that xmlsec1 verifies it', async (t) => {
  const issuer = anNfseIssuer();
  const samples: Record<string, string> = {};
  for (const [name, text] of [['nel', 'Linha 1\u0085Linha 2'], ['line-separator', '\u2028 ']]) {
    const body = aValidNfseBody({ servico: { valorServicos: 10, discriminacao: text } });
    samples[name] = buildSignedDps(checkNfse(validateNfseBody(body), issuer, { mesAtual: MES_ATUAL }).dps, aDpsContext(issuer), signer).xml;
    t.true(samples[name]!.includes(`<xDescServ>${text}</xDescServ>`), name);
  }
  const result = await verifyDfeFiles(samples);
  t.true(result.ok, result.output);
});

test('property: arbitrary JSON bodies end in a 400/422 DomainError, never a crash', (t) => {
  fc.assert(fc.property(fc.jsonValue(), (body) => {
    try {
      checkNfse(validateNfseBody(body), anNfseIssuer(), { mesAtual: MES_ATUAL });
      return true;
    } catch (error) {
      if (error instanceof DomainError) return error.code === 400 || error.code === 422;
      throw error;
    }
  }), { numRuns: 300 });
  t.pass();
});

test('property: any single-leaf mutation of a valid body is refused with a 400/422, or builds a schema-valid DPS', (t) => {
  const base = aValidNfseBody({ retencoes: { inss: 1 }, ibsCbs: { cst: '000', cClassTrib: '000001', cIndOp: '100301', finNFSe: 0, indDest: 0 } });
  fc.assert(fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.jsonValue(), (pick, value) => {
    const copy = structuredClone(base);
    let node: any = copy;
    for (let depth = 0; depth < pick.length; depth++) {
      const keys = Object.keys(node);
      const key = keys[pick[depth]! % keys.length]!;
      if (depth === pick.length - 1 || node[key] === null || typeof node[key] !== 'object') { node[key] = value; break; }
      node = node[key];
    }
    try {
      const issuer = anNfseIssuer();
      buildSignedDps(checkNfse(validateNfseBody(copy), issuer, { mesAtual: MES_ATUAL }).dps, aDpsContext(issuer), signer);
      return true;
    } catch (error) {
      // What the validator and the rules accept must be schema-valid: XML_FORA_DO_ESQUEMA is a bug.
      if (error instanceof DomainError) return error.type !== 'XML_FORA_DO_ESQUEMA' && (error.code === 400 || error.code === 422);
      throw error;
    }
  }), { numRuns: 300 });
  t.pass();
});

import test from 'ava';
import fc from 'fast-check';
import { DomainError } from '../../../lib/errors/index.js';
import { checkNfce, checkNfe } from '../../../lib/nfe/check.js';
import { validateBatchBody, validateNfceBody, validateNfeBody } from '../../../lib/nfe/validate.js';
import { aValidNfceBody, aValidNfeBody, anIssuer } from '../../support/nfe-factories.js';

/** Guide, "Bad input and faults": no input, however malformed, ends in anything but a DomainError. */
function onlyDomainErrors(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch (error) {
    if (error instanceof DomainError) return error.code === 400 || error.code === 422;
    throw error;
  }
}

test('property: arbitrary JSON bodies are refused with a DomainError, never a crash', (t) => {
  fc.assert(fc.property(fc.jsonValue(), (body) =>
    onlyDomainErrors(() => validateNfeBody(body)) && onlyDomainErrors(() => validateNfceBody(body)) && onlyDomainErrors(() => validateBatchBody(body))), { numRuns: 300 });
  t.pass();
});

/** Replaces one leaf of a valid body (found by a random path) with a random JSON value. */
function mutate(body: any, pick: number[], value: unknown): any {
  const copy = structuredClone(body);
  let node = copy;
  for (let depth = 0; depth < pick.length; depth++) {
    const keys = Object.keys(node);
    if (!keys.length) break;
    const key = keys[pick[depth]! % keys.length]!;
    if (depth === pick.length - 1 || node[key] === null || typeof node[key] !== 'object') {
      node[key] = value;
      break;
    }
    node = node[key];
  }
  return copy;
}

const scalar = fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double({ noNaN: true, min: -1, max: 1e6 }), fc.string({ maxLength: 20 }), fc.constantFrom('00', '10', '102', '201', '61', '90', '5102', '6102', 'SEM GTIN', 0, 1, 9, null));

test('property: mutated valid NF-e and NFC-e bodies go through validation and rules without crashing', (t) => {
  fc.assert(fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), scalar, fc.constantFrom(1, 3, 4) as fc.Arbitrary<1 | 3 | 4>, (pick, value, crt) => {
    const issuer = anIssuer({ crt });
    const nfe = mutate(aValidNfeBody(), pick, value);
    const nfce = mutate(aValidNfceBody(), pick, value);
    return onlyDomainErrors(() => checkNfe(validateNfeBody(nfe), issuer))
      && onlyDomainErrors(() => checkNfce(validateNfceBody(nfce), issuer));
  }), { numRuns: 1000 });
  t.pass();
});

const ICMS_FIELDS = [
  'aliquota', 'baseCalculo', 'valor', 'modBC', 'pRedBC', 'vBC', 'pICMS', 'vICMS', 'vBCFCP', 'pFCP', 'vFCP', 'modBCST', 'pMVAST',
  'pRedBCST', 'vBCST', 'pICMSST', 'vICMSST', 'vBCFCPST', 'pFCPST', 'vFCPST', 'qBCMono', 'adRemICMS', 'vICMSMono', 'qBCMonoRet',
  'adRemICMSRet', 'vICMSMonoRet', 'indDeduzDeson', 'motDesICMS', 'vICMSDeson', 'pCredSN', 'vCredICMSSN',
] as const;

test('property: random combinations of ICMS fields and CST/CSOSN only end in catalogued refusals', (t) => {
  const icms = fc.record({
    code: fc.constantFrom('cst:00', 'cst:10', 'cst:20', 'cst:30', 'cst:40', 'cst:51', 'cst:60', 'cst:70', 'cst:90', 'cst:02', 'cst:61', 'cst:15', 'cst:99',
      'csosn:102', 'csosn:201', 'csosn:202', 'csosn:500', 'csosn:900'),
    fields: fc.subarray([...ICMS_FIELDS], { maxLength: 8 }),
    value: fc.constantFrom(0, 1, 3, 18, 100, 12.5),
  });
  fc.assert(fc.property(icms, fc.constantFrom(1, 2, 3, 4) as fc.Arbitrary<1 | 2 | 3 | 4>, ({ code, fields, value }, crt) => {
    const [kind, v] = code.split(':') as ['cst' | 'csosn', string];
    const group: Record<string, unknown> = { origem: 0, [kind]: v };
    for (const f of fields) group[f] = f === 'indDeduzDeson' ? 1 : f === 'modBC' || f === 'modBCST' ? 3 : f === 'motDesICMS' ? 9 : value;
    const nfe = aValidNfeBody();
    nfe.items = [{ ...nfe.items[0]!, icms: group as any }];
    const nfce = aValidNfceBody({ items: nfe.items });
    return onlyDomainErrors(() => checkNfe(validateNfeBody(nfe), anIssuer({ crt })))
      && onlyDomainErrors(() => checkNfce(validateNfceBody(nfce), anIssuer({ crt })));
  }), { numRuns: 2000 });
  t.pass();
});

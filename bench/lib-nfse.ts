/**
 * Benchmark (not a test) of the NFS-e national-standard hot path in lib/, one core, per DPS:
 *   validate (validateNfseBody) + rules (checkNfse) + build (canonical infDPS) + sign
 *   (node:crypto RSA-SHA1) + XSD (compiled DPS_v1.01 validator)
 * starting from the request body, for three bodies (minimal, full with taker, retentions and the
 * IBS/CBS group, and a 2000-character description), median and p99 over repeated runs; then heap
 * and RSS across many DPS to show memory stays flat.
 *
 *   npx tsx --expose-gc bench/lib-nfse.ts
 *   BENCH_MEMORY_DPS=50000 npx tsx bench/lib-nfse.ts
 */
import { performance } from 'node:perf_hooks';
import { checkNfse } from '../lib/nfse/check.js';
import { buildSignedDps, type DpsBuildStep } from '../lib/nfse/document.js';
import { validateNfseBody } from '../lib/nfse/validate.js';
import { createSigner } from '../lib/sign/signer.js';
import { testSigningMaterial } from '../test/support/checked-note-factories.js';
import { aValidNfseBody, anNfseIssuer } from '../test/support/nfse-factories.js';
import { aDpsContext } from '../test/support/nfse-scenarios.js';

const signer = createSigner(testSigningMaterial());
const issuer = anNfseIssuer({ crt: 3 });
const MES = '2026-11';

const bodies: Record<string, unknown> = {
  minimal: aValidNfseBody({ tomador: undefined, dpsNacional: { opSimpNac: 1, cTribNac: '010101', tribISSQN: 1 } }),
  full: aValidNfseBody({
    dpsNacional: { opSimpNac: 1, cTribNac: '170101', cTribMun: '002', tribISSQN: 1, cstPisCofins: '01', tpRetPisCofins: 3 },
    servico: { ...aValidNfseBody().servico, valorServicos: 25000, aliquotaIss: 5, descontoIncondicionado: 100, valorDeducoes: 1000 },
    retencoes: { inss: 2750, irrf: 375, csll: 250, issRetidoPor: 2 },
    ibsCbs: {
      cst: '200', cClassTrib: '200052', cIndOp: '100301', finNFSe: 0, indDest: 0, indFinal: 1,
      gDif: { pDifUF: 10, pDifMun: 0, pDifCBS: 12.5 }, gTribRegular: { cstReg: '000', cClassTribReg: '000001' },
    },
    informacoesComplementares: 'Contrato 2026/001',
  }),
  'long-description': aValidNfseBody({
    dpsNacional: { opSimpNac: 1, cTribNac: '010101', tribISSQN: 1 },
    servico: { ...aValidNfseBody().servico, discriminacao: 'Servico de consultoria em sistemas, '.repeat(56).slice(0, 2000) },
  }),
};

function stats(samples: number[]): { median: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p99: s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]! };
}

const ms = (v: number) => v.toFixed(3);
const RUNS = Number(process.env.BENCH_RUNS ?? 3000);

console.log(`NFS-e DPS 1.01, per DPS, ${RUNS} runs after warm-up (ms)`);
console.log('| body | KB | validate | rules | build | sign | XSD | chain median / p99 |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, body] of Object.entries(bodies)) {
  const steps: Record<string, number[]> = { validate: [], rules: [], build: [], sign: [], xsd: [] };
  const chain: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS + 200; i++) {
    const t0 = performance.now();
    const valid = validateNfseBody(body);
    const t1 = performance.now();
    const { dps } = checkNfse(valid, issuer, { mesAtual: MES });
    const t2 = performance.now();
    let last = t2;
    const marks: Partial<Record<DpsBuildStep, number>> = {};
    const doc = buildSignedDps(dps, aDpsContext(issuer, i + 1), signer, (step) => {
      const now = performance.now();
      marks[step] = now - last;
      last = now;
    });
    if (i < 200) continue; // warm-up
    size = Buffer.byteLength(doc.xml);
    steps.validate!.push(t1 - t0);
    steps.rules!.push(t2 - t1);
    steps.build!.push(marks.build!);
    steps.sign!.push(marks.sign!);
    steps.xsd!.push(marks.xsd!);
    chain.push(last - t0);
  }
  const c = stats(chain);
  const med = (k: string) => ms(stats(steps[k]!).median);
  console.log(`| ${name} | ${(size / 1024).toFixed(1)} | ${med('validate')} | ${med('rules')} | ${med('build')} | ${med('sign')} | ${med('xsd')} | **${c.median.toFixed(2)} / ${c.p99.toFixed(2)}** |`);
}

const MEMORY_DPS = Number(process.env.BENCH_MEMORY_DPS ?? 20000);
const gc = (globalThis as any).gc as (() => void) | undefined;
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
console.log(`\nMemory over ${MEMORY_DPS} full DPS${gc ? ' (after gc)' : ' (no --expose-gc: approximate)'}`);
for (let i = 1; i <= MEMORY_DPS; i++) {
  const { dps } = checkNfse(validateNfseBody(bodies.full), issuer, { mesAtual: MES });
  buildSignedDps(dps, aDpsContext(issuer, i), signer);
  if (i % Math.max(1, Math.floor(MEMORY_DPS / 5)) === 0) {
    gc?.();
    const m = process.memoryUsage();
    console.log(`  ${i}: heap ${mb(m.heapUsed)} MB, rss ${mb(m.rss)} MB, external ${mb(m.external)} MB`);
  }
}

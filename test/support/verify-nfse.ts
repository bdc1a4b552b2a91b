import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DfeCheck } from './verify-dfe.js';

/** The official NFS-e schemas kept in the repository (data/schemas, see data/README.md). */
const NFSE_XSD_DIR = fileURLToPath(new URL('../../data/schemas/nfse/1.01/', import.meta.url));
const NFSE_NS = 'http://www.sped.fazenda.gov.br/nfse';

/**
 * An NFS-e (or a Sefin evento) carries two signatures: Sefin's over infNFSe/infEvento and the
 * issuer's over the embedded infDPS/infPedReg, which comes first in document order, so the
 * one-signature verify-dfe check cannot take it. The same independent tools, each signature picked
 * by XPath: xmllint against the official XSD, xmlsec1 for both signatures.
 */
export function verifyNfseDocument(xml: string, kind: 'NFSe' | 'evento' = 'NFSe'): DfeCheck {
  const dir = mkdtempSync(join(tmpdir(), 'nfse-'));
  const file = join(dir, `${kind}.xml`);
  writeFileSync(file, xml);
  const [outer, inner, xsd] = kind === 'NFSe' ? ['infNFSe', 'infDPS', 'NFSe_v1.01.xsd'] : ['infEvento', 'infPedReg', 'evento_v1.01.xsd'];
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${cmd}: ${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`.trim() };
  };
  try {
    const checks = [
      run('xmllint', ['--noout', '--schema', join(NFSE_XSD_DIR, xsd), file]),
      ...[outer, inner].map((signed) => run('xmlsec1', [
        '--verify', '--insecure', '--enabled-key-data', 'x509', '--id-attr:Id', `${NFSE_NS}:${outer}`, '--id-attr:Id', `${NFSE_NS}:${inner}`,
        '--node-xpath', `//*[local-name()='Signature'][preceding-sibling::*[local-name()='${signed}']]`,
        file,
      ])),
    ];
    return { ok: checks.every((c) => c.ok), output: checks.map((c) => c.output).join('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

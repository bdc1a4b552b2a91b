import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** ../shared/tools/verify-dfe.sh from the repository root: xmllint (official XSD) + xmlsec1, independent of our code. */
const SCRIPT = resolve(fileURLToPath(new URL('../../', import.meta.url)), '../shared/tools/verify-dfe.sh');

export interface DfeCheck {
  ok: boolean;
  output: string;
}

function writeDocs(docs: Record<string, string>): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'dfe-'));
  const files = Object.entries(docs).map(([name, xml]) => {
    const file = join(dir, `${name}.xml`);
    writeFileSync(file, xml);
    return file;
  });
  return { dir, files };
}

/** Writes each document to a fresh temp dir and runs the independent checker once over all. */
export function verifyDfeFiles(docs: Record<string, string>): Promise<DfeCheck> {
  const { dir, files } = writeDocs(docs);
  return new Promise((done) => {
    execFile(SCRIPT, files, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      done({ ok: !err, output: stdout + stderr });
    });
  });
}

/** The same check, synchronously (for a single document in a simple test). */
export function verifyDfe(docs: Record<string, string>): DfeCheck {
  const { dir, files } = writeDocs(docs);
  try {
    return { ok: true, output: execFileSync(SCRIPT, files, { encoding: 'utf8' }) };
  } catch (err: any) {
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SHARED_NFSE_XSD = resolve(fileURLToPath(new URL('../../', import.meta.url)), '../shared/schemas/nfse/1.01');

/**
 * An NFS-e (or a Sefin evento) carries two signatures: Sefin's over infNFSe/infEvento and the
 * issuer's over the embedded infDPS/infPedReg, which comes first in document order, so
 * verify-dfe.sh (one Id attribute, first signature) cannot check it. The same independent tools,
 * each signature picked by XPath: xmllint against the official XSD, xmlsec1 for both signatures.
 */
export function verifyNfseDocument(xml: string, kind: 'NFSe' | 'evento' = 'NFSe'): DfeCheck {
  const { dir, files } = writeDocs({ [kind]: xml });
  const file = files[0]!;
  const [outer, inner, xsd] = kind === 'NFSe' ? ['infNFSe', 'infDPS', 'NFSe_v1.01.xsd'] : ['infEvento', 'infPedReg', 'evento_v1.01.xsd'];
  const ns = 'http://www.sped.fazenda.gov.br/nfse';
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${cmd}: ${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`.trim() };
  };
  try {
    const checks = [
      run('xmllint', ['--noout', '--schema', join(SHARED_NFSE_XSD, xsd), file]),
      ...[outer, inner].map((el) => run('xmlsec1', [
        '--verify', '--insecure', '--enabled-key-data', 'x509', '--id-attr:Id', `${ns}:${outer}`, '--id-attr:Id', `${ns}:${inner}`,
        '--node-xpath', `//*[local-name()='Signature'][*[local-name()='SignedInfo']/*[local-name()='Reference'][starts-with(@URI, '#')]][preceding-sibling::*[local-name()='${el}']]`,
        file,
      ])),
    ];
    return { ok: checks.every((c) => c.ok), output: checks.map((c) => c.output).join('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

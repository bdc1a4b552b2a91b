import { execFile, execFileSync } from 'node:child_process';
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

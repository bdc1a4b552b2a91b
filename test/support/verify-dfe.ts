import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Runs /work/shared/tools/verify-dfe.sh (xmllint + xmlsec1, independent of our code) on documents. */
const TOOL = fileURLToPath(new URL('../../../shared/tools/verify-dfe.sh', import.meta.url));

export function verifyDfe(docs: Record<string, string>): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dfe-'));
  try {
    const files = Object.entries(docs).map(([name, xml]) => { const f = join(dir, `${name}.xml`); writeFileSync(f, xml); return f; });
    try {
      return { ok: true, output: execFileSync(TOOL, files, { encoding: 'utf8' }) };
    } catch (err: any) {
      return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

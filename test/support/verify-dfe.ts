import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** ../shared/tools/verify-dfe.sh from the repository root: xmllint (official XSD) + xmlsec1. */
const SCRIPT = resolve(fileURLToPath(new URL('../../', import.meta.url)), '../shared/tools/verify-dfe.sh');

export interface DfeCheck {
  ok: boolean;
  output: string;
}

/** Writes each document to a fresh temp dir and runs the independent checker once over all. */
export function verifyDfeFiles(docs: Record<string, string>): Promise<DfeCheck> {
  const dir = mkdtempSync(join(tmpdir(), 'nfe-xml-'));
  const files = Object.entries(docs).map(([name, xml]) => {
    const file = join(dir, `${name}.xml`);
    writeFileSync(file, xml);
    return file;
  });
  return new Promise((done) => {
    execFile(SCRIPT, files, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      done({ ok: !err, output: stdout + stderr });
    });
  });
}

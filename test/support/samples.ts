import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The public sample documents and vectors the tests read, kept in the repository
 * (test/fixtures/samples, copied from the team's shared fixtures; its README names each file's
 * source), so a clone of this repository alone tests green.
 */
export const SAMPLES_DIR = fileURLToPath(new URL('../fixtures/samples/', import.meta.url));

export function samplePath(path: string): string {
  return SAMPLES_DIR + path;
}

export function readSample(path: string): string {
  return readFileSync(samplePath(path), 'utf8');
}

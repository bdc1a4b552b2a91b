import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface AdminRun { code: number | null; stdout: string; stderr: string; json: any }

/**
 * `npm run admin -- ...args` as an operator runs it: bin/admin.ts through tsx in its own process,
 * with exactly `env` (the caller decides the database, secrets and namespace). `json` is stdout
 * parsed on success, stderr parsed on failure (the command prints its error envelope there).
 */
export function runAdmin(env: NodeJS.ProcessEnv, args: string[], stdin = ''): Promise<AdminRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('error', fail);
    child.on('close', (code) => {
      let json: any;
      try { json = JSON.parse(code === 0 ? stdout : stderr); } catch { json = undefined; }
      done({ code, stdout, stderr, json });
    });
    child.stdin.end(stdin);
  });
}

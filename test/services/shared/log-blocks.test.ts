import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LogBlocks } from '../../../services/shared/log-blocks.js';

const sink = () => {
  const blocks: string[] = [];
  return { blocks, write: (b: string) => { blocks.push(b); } };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('lines under the block size wait for flushMs after the first of them, then go out as one block in order', async (t) => {
  const out = sink();
  const log = new LogBlocks(out, { minLength: 4096, flushMs: 30 });
  log.write('{"a":1}\n');
  log.write('{"b":2}\n');
  t.deepEqual(out.blocks, []);
  await sleep(80);
  t.deepEqual(out.blocks, ['{"a":1}\n{"b":2}\n']);
});

test('a block goes out as soon as minLength characters wait, and its timer goes with it', async (t) => {
  const out = sink();
  const log = new LogBlocks(out, { minLength: 10, flushMs: 30 });
  log.write('12345\n');
  log.write('67890\n');
  t.deepEqual(out.blocks, ['12345\n67890\n']);
  await sleep(80);
  t.deepEqual(out.blocks, ['12345\n67890\n'], 'no empty write when the timer would have fired');
});

test('nothing written, nothing sent: flush with no line waiting writes nothing', async (t) => {
  const out = sink();
  const log = new LogBlocks(out, { minLength: 4096, flushMs: 10 });
  log.flush();
  await sleep(40);
  t.deepEqual(out.blocks, []);
});

/** A broker built by moleculer.config.ts in a child process, which logs then ends by a crash. */
const CHILD = `
import { ServiceBroker } from 'moleculer';
import { loadConfig } from './config.js';
import { brokerOptions } from './moleculer.config.js';
const broker = new ServiceBroker(brokerOptions(loadConfig({ ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'test' })));
broker.getLogger('blocks').info('the last line before the crash');
setTimeout(() => { throw new Error('crash'); }, 5);
`;

test('the node\'s standard output writes the lines still waiting when the process dies of an uncaught error', async (t) => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], { cwd: root, timeout: 30_000 }, (_err, stdout) => resolve({ code: child.exitCode, stdout }));
  });
  t.is(code, 1);
  t.regex(stdout, /"msg":"the last line before the crash"/);
});

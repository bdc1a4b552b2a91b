// A piscina worker written in TypeScript, run under tsx (npm start, the tests): a worker thread
// does not inherit the ESM loader hooks tsx registered in the main thread, and without them only
// CommonJS `require` of the .ts file works, which fails for a module graph with top-level await
// (libxml2-wasm's). This file registers tsx in the thread, then loads the worker its workerData
// names and hands piscina its default export. Compiled (Dockerfile) the workers are .js and are
// loaded directly (services/shared/worker-file.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
if (typeof workerData?.tsWorker !== 'string') throw new Error('ts-worker.mjs needs workerData.tsWorker: the file URL of the .ts worker');
export default (await import(workerData.tsWorker)).default;

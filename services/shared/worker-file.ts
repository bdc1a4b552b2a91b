/**
 * Piscina's options for the worker `name` beside `moduleUrl` (its import.meta.url): the compiled
 * `.js` once built (Dockerfile); under tsx (npm start, tests) the `.ts`, loaded through
 * ts-worker.mjs, which registers tsx inside the thread first.
 */
export function siblingWorker(moduleUrl: string, name: string): { filename: string; workerData?: { tsWorker: string } } {
  if (!moduleUrl.endsWith('.ts')) return { filename: new URL(`./${name}.js`, moduleUrl).href };
  return { filename: new URL('./ts-worker.mjs', import.meta.url).href, workerData: { tsWorker: new URL(`./${name}.ts`, moduleUrl).href } };
}

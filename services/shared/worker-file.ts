/**
 * The file of a piscina worker beside `moduleUrl` (its import.meta.url): `.ts` under tsx (npm start,
 * tests), `.js` once compiled (Dockerfile).
 */
export function siblingWorker(moduleUrl: string, name: string): string {
  return new URL(`./${name}${moduleUrl.endsWith('.ts') ? '.ts' : '.js'}`, moduleUrl).href;
}

import type { ServiceSchema } from 'moleculer';

/**
 * Every service of the product, by the name SERVICES selects it with. Loaded lazily so a node
 * only imports what it runs.
 */
export const SERVICE_LOADERS: Record<string, () => Promise<ServiceSchema>> = {
  'api-gateway': async () => (await import('./api-gateway.service.js')).default,
  auth: async () => (await import('./auth.service.js')).default,
  issuer: async () => (await import('./issuer.service.js')).default,
  emission: async () => (await import('./emission.service.js')).default,
  sefaz: async () => (await import('./sefaz.service.js')).default,
  'contingency-monitor': async () => (await import('./contingency-monitor.service.js')).default,
  'webhook-dispatcher': async () => (await import('./webhook-dispatcher.service.js')).default,
  classification: async () => (await import('./classification.service.js')).default,
};

export const ALL_SERVICES = Object.keys(SERVICE_LOADERS);

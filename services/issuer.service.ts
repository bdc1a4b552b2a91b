import type { ServiceSchema } from 'moleculer';

/** issuer: registered by the platform foundation; its actions arrive with their own issue. */
const Service: ServiceSchema = {
  name: 'issuer',
  version: 1,
  settings: { rest: '/' },
};

export default Service;

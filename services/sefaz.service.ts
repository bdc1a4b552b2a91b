import type { ServiceSchema } from 'moleculer';

/** sefaz: registered by the platform foundation; its actions arrive with their own issue. */
const Service: ServiceSchema = {
  name: 'sefaz',
  version: 1,
  settings: { rest: '/' },
};

export default Service;

import type { ServiceSchema } from 'moleculer';

/** classification: registered by the platform foundation; its actions arrive with their own issue. */
const Service: ServiceSchema = {
  name: 'classification',
  version: 1,
  settings: { rest: '/' },
};

export default Service;

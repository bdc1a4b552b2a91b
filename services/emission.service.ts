import type { ServiceSchema } from 'moleculer';

/** emission: registered by the platform foundation; its actions arrive with their own issue. */
const Service: ServiceSchema = {
  name: 'emission',
  version: 1,
  settings: { rest: '/' },
};

export default Service;

import type { ServiceSchema } from 'moleculer';

/** auth: registered by the platform foundation; its actions arrive with their own issue. */
const Service: ServiceSchema = {
  name: 'auth',
  version: 1,
  settings: { rest: '/' },
};

export default Service;

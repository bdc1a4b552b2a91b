import type { ServiceSchema } from 'moleculer';

/** webhook-dispatcher: registered by the platform foundation; its actions arrive with their own issue. */
const Service: ServiceSchema = {
  name: 'webhook-dispatcher',
  version: 1,
  settings: { rest: '/' },
};

export default Service;

import type { ServiceSchema } from 'moleculer';

/** contingency-monitor: registered by the platform foundation; its actions arrive with their own issue. */
const Service: ServiceSchema = {
  name: 'contingency-monitor',
  version: 1,
  settings: { rest: '/' },
};

export default Service;

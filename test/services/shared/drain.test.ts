import test from 'ava';
import { ServiceBroker } from 'moleculer';
import { beginDrain, isReady } from '../../../services/shared/drain.js';

test('isReady is false before start, true once started, false from the moment stop() is called', async (t) => {
  const broker = new ServiceBroker({ logger: false, skipProcessEventRegistration: true });
  t.false(isReady(broker));
  await broker.start();
  t.true(isReady(broker));
  const stopping = broker.stop();
  t.false(isReady(broker));
  await stopping;
  t.false(isReady(broker));
});

test('beginDrain makes a started node not ready while it still runs', async (t) => {
  const broker = new ServiceBroker({ logger: false, skipProcessEventRegistration: true });
  await broker.start();
  t.teardown(() => broker.stop());
  beginDrain(broker);
  t.true(broker.started);
  t.false(isReady(broker));
});

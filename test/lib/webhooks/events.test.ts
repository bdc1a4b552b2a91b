import test from 'ava';
import { isSubscribed, isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../../../lib/webhooks/events.js';

test('the event enum has the 13 types of API.md and not the names that do not exist', (t) => {
  t.is(WEBHOOK_EVENT_TYPES.length, 13);
  t.true(isWebhookEventType('invoice.contingency.expired'));
  t.false(isWebhookEventType('invoice.correction'));
  t.false(isWebhookEventType('nfse.authorized'));
});

test('isSubscribed with empty events[] takes every event except sefaz.status.changed', (t) => {
  t.true(isSubscribed([], 'invoice.authorized'));
  t.true(isSubscribed([], 'certificate.expiring'));
  t.false(isSubscribed([], 'sefaz.status.changed'));
});

test('isSubscribed with a list takes exactly the listed types, sefaz.status.changed when listed', (t) => {
  t.true(isSubscribed(['sefaz.status.changed'], 'sefaz.status.changed'));
  t.false(isSubscribed(['sefaz.status.changed'], 'invoice.authorized'));
  t.true(isSubscribed(['invoice.rejected'], 'invoice.rejected'));
  t.false(isSubscribed(['invoice.rejected'], 'invoice.canceled'));
});

test('isSubscribed refuses types outside the enum even when listed', (t) => {
  t.false(isSubscribed(['invoice.correction'], 'invoice.correction'));
  t.false(isSubscribed([], 'webhook.test'));
});

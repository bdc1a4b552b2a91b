import test from 'ava';
import { decodeCursor, encodeCursor } from '../../../lib/pagination/cursor.js';

test('cursor round-trips the position of the last item', (t) => {
  const p = { createdAt: new Date('2026-11-22T15:00:00.123Z'), id: '0b0f8a36-5a53-4b6c-9f49-1a7e3bb4c7a1' };
  t.deepEqual(decodeCursor(encodeCursor(p)), p);
});

test('a malformed cursor is a 400 VALIDATION_ERROR naming cursor', (t) => {
  for (const bad of ['xyz', Buffer.from('2026|not-a-uuid').toString('base64url'), Buffer.from('nodate|0b0f8a36-5a53-4b6c-9f49-1a7e3bb4c7a1').toString('base64url')]) {
    const err = t.throws(() => decodeCursor(bad)) as any;
    t.is(err.type, 'VALIDATION_ERROR');
    t.deepEqual(err.data.errors.map((e: any) => e.field), ['cursor']);
  }
});

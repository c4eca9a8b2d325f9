import { describe, expect, it } from 'vitest';
import { turns } from '../../src/memory/turns.js';

describe('work in slices', () => {
  it('lets the event loop run once the slice is spent, and not before', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    expect(turns(60_000)()).toBeUndefined();
    const spent = turns(0)();
    expect(spent).toBeInstanceOf(Promise);
    await spent;
    order.push('after the turn');
    expect(order).toEqual(['other work', 'after the turn']);
  });
});

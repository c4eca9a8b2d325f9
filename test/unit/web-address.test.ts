import { describe, expect, it } from 'vitest';
import { MALFORMED_TOKEN_LINK, NOT_A_TOKEN, memoryHref, parseRoute, parseTokenFragment, tokenShapeError } from '../../web/src/address.js';

describe("the page's address (web/src/address.ts)", () => {
  it('routes: the list, a memory (its id decoded), inferences, cleanup; an unknown address is the list', () => {
    expect(parseRoute('')).toEqual({ name: 'list' });
    expect(parseRoute('#/')).toEqual({ name: 'list' });
    expect(parseRoute('#/nope')).toEqual({ name: 'list' });
    expect(parseRoute('#/inferences')).toEqual({ name: 'inferences' });
    expect(parseRoute('#/cleanup')).toEqual({ name: 'cleanup' });
    expect(parseRoute(memoryHref('a b/%c'))).toEqual({ name: 'memory', id: 'a b/%c' });
  });

  it('a memory address with a broken %-escape names no memory, and does not throw', () => {
    for (const hash of ['#/memory/%', '#/memory/%E0%A4%A', '#/memory/abc%zz', '#/memory/%C3']) {
      expect(parseRoute(hash), hash).toEqual({ name: 'missing' });
    }
  });

  it('#token=: the token decoded; a broken %-escape or an empty token is a reason, never the token', () => {
    expect(parseTokenFragment('#/')).toBeNull();
    expect(parseTokenFragment('')).toBeNull();
    expect(parseTokenFragment(`#token=${encodeURIComponent('eng_op+x/y=')}`)).toEqual({ token: 'eng_op+x/y=' });
    expect(parseTokenFragment('#token=abc&next=1')).toEqual({ token: 'abc' });
    for (const hash of ['#token=eng_secret123%', '#token=%E0%A4%A', '#token=', '#token=%20']) {
      const r = parseTokenFragment(hash);
      expect(r, hash).toEqual({ error: MALFORMED_TOKEN_LINK });
    }
    expect(MALFORMED_TOKEN_LINK).not.toContain('secret');
  });

  it('a token is one word of visible ASCII: anything a header cannot carry is "not a token"', () => {
    expect(tokenShapeError('eng_op_AbC-123+/=')).toBeNull();
    expect(tokenShapeError('!~')).toBeNull();
    for (const text of ['eng_op€abc', 'eng op', 'eng\u0000op', 'eng\top', 'éng', 'eng\u007fop', '']) {
      expect(tokenShapeError(text), JSON.stringify(text)).toBe(NOT_A_TOKEN);
    }
    expect(parseTokenFragment(`#token=${encodeURIComponent('eng_op€abc')}`)).toEqual({ error: NOT_A_TOKEN });
    expect(parseTokenFragment('#token=eng%00op')).toEqual({ error: NOT_A_TOKEN });
  });
});

/**
 * Forget for good takes every copy of the words (docs/erasure.md, "Every copy"), on both
 * databases: every message of the space that holds a forgotten wording, the person's and the
 * assistant's, loses the sentences holding it, so nothing holding the words is left and the
 * quote cannot be kept again; and the redaction mark a forget leaves is never kept as the
 * person's words (docs/quote-check.md, FORGOTTEN).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { actors, contentCounts } from '../helpers/memory.js';

const FORGET = `mutation($ids: [ID!]!) { forgetMemories(ids: $ids, confirm: true) { __typename ... on BulkResult { changed } } }`;
/** A word nobody else writes, letters only, ending in x (no suffix rule shortens it in the lexicon). */
const word = () => `zq${randomBytes(5).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}x`;

for (const target of testDatabases()) {
  describe(`forget for good takes every copy (${target.name})`, () => {
    const app = testAppOn(target);

    const messagesOf = async (spaceId: string) =>
      (await app.t.app.engram.db.query<{ role: string; text: string }>(`select role, text from messages where space_id = $1 order by seq`, [spaceId])).rows;

    it('redacts the wording from every message of the space that holds it; a remember of it is refused after', async () => {
      const s = await app.t.space({ name: 'every copy' });
      const a = actors(app.t.gql, s);
      const secret = word();
      const quote = `I have a tattoo of a ${secret} on my ankle.`;
      const c = await a.open();
      await a.say(c, `${quote} I like tea.`);
      await a.say(c, `You said: ${quote} Noted.`, { role: 'ASSISTANT' });
      await a.say(c, quote);
      // another conversation of the same space, the words typed with other spacing and no final period
      const c2 = await a.open();
      await a.say(c2, `Hello again.\nI have a tattoo of a  ${secret} on my ankle`);
      const tea = await a.remember({ conversationId: c, quote: 'I like tea.' });
      const kept = await a.remember({ conversationId: c, quote, entities: [secret] });
      expect(kept.outcome).toBe('CREATED');
      expect(tea.outcome).toBe('CREATED');
      expect(tea.memory.context).toContain(secret);

      expect((await app.t.gql(s.operator, FORGET, { ids: [kept.memory.id] })).data.forgetMemories).toEqual({ __typename: 'BulkResult', changed: 1 });

      const after = await messagesOf(s.id);
      expect(after.filter((m) => m.text.includes(secret))).toEqual([]);
      expect(after).toEqual([
        { role: 'USER', text: '[forgotten]\nI like tea.' },
        { role: 'ASSISTANT', text: '[forgotten]\nNoted.' },
        { role: 'USER', text: 'Hello again.\n[forgotten]' },
      ]);
      const everywhere = await app.t.app.engram.db.query<{ n: number }>(
        `select (select count(*) from messages where text like '%' || $1 || '%') + (select count(*) from memories where context like '%' || $1 || '%')
           + (select count(*) from memory_terms where term like '%' || $1 || '%') as n`, [secret]);
      expect(Number(everywhere.rows[0]!.n)).toBe(0);
      // what stays keeps its own words, and what its message still says
      expect(await a.memory(tea.memory.id)).toMatchObject({ status: 'ACTIVE', quote: 'I like tea.', context: null });

      // the words are not in the conversation any more: refused, nothing written
      const before = await contentCounts(app.t.app.engram.db, s.id);
      for (const conversationId of [c, c2]) {
        const again = await a.remember({ conversationId, quote });
        expect(again).toMatchObject({ __typename: 'QuoteNotFound', reason: 'NOT_FOUND' });
      }
      expect(await contentCounts(app.t.app.engram.db, s.id)).toEqual(before);
    });

    it('takes the copies the quote check reads as the same words: an invisible character inside a word, letters decomposed', async () => {
      const s = await app.t.space({ name: 'copies read past' });
      const a = actors(app.t.gql, s);
      const secret = word();
      const quote = `My PIN for the ${secret} safe is 4321.`;
      const place = `I keep it in Z\u00fcrich ${secret}.`;
      const c = await a.open();
      await a.say(c, `${quote} ${place}`);
      // other conversations: the same sentences with a zero-width space, a soft hyphen, decomposed letters
      const c2 = await a.open();
      await a.say(c2, `Hello there. My PIN for the ${secret} safe is 43\u200b21. Bye now.`);
      const c3 = await a.open();
      await a.say(c3, `My PIN for the ${secret.slice(0, 3)}\u00ad${secret.slice(3)} safe is 4321.\nI keep it in Zu\u0308rich ${secret}.`);
      const pin = await a.remember({ conversationId: c, quote });
      const where = await a.remember({ conversationId: c, quote: place });
      expect([pin.outcome, where.outcome]).toEqual(['CREATED', 'CREATED']);
      // (the check reads past them: the copy is quotable before the forget)
      expect(await a.remember({ conversationId: c2, quote })).toMatchObject({ outcome: 'REINFORCED' });

      expect((await app.t.gql(s.operator, FORGET, { ids: [pin.memory.id, where.memory.id] })).data.forgetMemories.changed).toBe(2);
      // (a message of forgotten sentences alone goes; the others keep what else they say)
      expect((await messagesOf(s.id)).map((m) => m.text)).toEqual(['Hello there.\n[forgotten]\nBye now.']);
      for (const conversationId of [c, c2, c3]) {
        for (const q of [quote, place]) expect(await a.remember({ conversationId, quote: q }), `${conversationId} ${q}`).toMatchObject({ __typename: 'QuoteNotFound' });
      }
    });

    it('never keeps the redaction mark as the person\'s words, nor shows it as what was said', async () => {
      const s = await app.t.space({ name: 'the mark' });
      const a = actors(app.t.gql, s);
      const secret = word();
      const c = await a.open();
      await a.say(c, `My locker code is ${secret}. I like coffee.`);
      const code = await a.remember({ conversationId: c, quote: `My locker code is ${secret}.` });
      expect((await app.t.gql(s.operator, FORGET, { ids: [code.memory.id] })).data.forgetMemories.changed).toBe(1);
      expect((await messagesOf(s.id)).map((m) => m.text)).toEqual(['[forgotten]\nI like coffee.']);

      const before = await contentCounts(app.t.app.engram.db, s.id);
      for (const quote of ['[forgotten]', '[forgotten] I like coffee.', '[forgotten]\nI like coffee.', 'forgotten']) {
        const r = await a.remember({ conversationId: c, quote });
        expect(r, quote).toMatchObject({ __typename: 'ForgottenWordsRefused', code: 'QUOTE_FORGOTTEN', reason: 'FORGOTTEN' });
        expect(r.detail).toContain('not the person');
      }
      expect(await contentCounts(app.t.app.engram.db, s.id)).toEqual(before);

      // the sentence beside the mark is still the person's, and its memory keeps no mark
      const coffee = await a.remember({ conversationId: c, quote: 'I like coffee.' });
      expect(coffee).toMatchObject({ outcome: 'CREATED', memory: { quote: 'I like coffee.', context: null } });
      const r = await a.recall(c, 'What do I like to drink? forgotten');
      expect(JSON.stringify(r)).not.toContain('[forgotten]');
      expect(JSON.stringify(await a.profile())).not.toContain('[forgotten]');
    });
  });
}

/**
 * Conversational data: two people chatting narrate, answer, thank and ask. None of
 * that corrects an earlier turn. These tests pin the rules that used to take chat
 * turns for corrections (see docs/corrections.md, "Conversation"), and check that
 * real corrections said in a chat still are.
 */
import { describe, expect, it } from 'vitest';
import { correctionCue, relate, vocatives, type StatementLike } from '../../src/core/conflicts.js';
import { decide, type Candidate } from '../../src/core/recognition.js';

const s = (text: string, entities: string[] = []): StatementLike => ({ text, type: 'FACT', entities, themes: [], previousSentence: null });
const rel = (a: string, b: string, topical = true) => relate(s(a), s(b), topical);

describe('cues that are not corrections in chat', () => {
  it.each([
    'What have you been up to lately?',
    "I'm down to help with the bake sale.",
    'One of the nurses came up to me after the show.',
    "I'll never forget that!",
    "It's easy to get lost and forget that.",
    "Don't ever forget that your friends are there.",
    "I'll keep you updated.",
    'We need updated maps for the trip.',
    'When I turned twelve, my uncle took me fishing.',
    "Since I quit my job at the bakery, it's been hard.",
    // a state, a wish, an order: no change told
    'My parents are retired.',
    "She's retired.",
    'I want to quit my job.',
    "Don't quit.",
    'When he retired, we moved.',
  ])('no strong cue in %s', (text) => {
    const cue = correctionCue(text);
    expect(cue === null || ['now', 'new', 'lately'].includes(cue)).toBe(true);
  });
  it.each([
    ['My rent went up to 1,020 pounds.', 'went up to'],
    ["I'm down to 78 kilos.", "'m down to"],
    ['Forget that, it is on Wednesday.', 'forget that'],
    ['I updated my address.', 'i updated'],
    ['I turned 35 today.', 'turned 35'],
    ["I'm not allergic after all, the test came back negative.", 'after all'],
    ['I quit my job at the bakery.', 'i quit'],
    // someone else's change, and a move into a place
    ['Tom has left Google and joined Microsoft.', 'has left'],
    ['My partner quit teaching.', 'quit'],
    ['Dad retired in May.', 'retired'],
    ['My mum moved into a care home in March.', 'moved into'],
    ['My blood pressure is back to normal now.', 'is back to normal'],
    ['We had to rehome Rex.', 'had to rehome'],
  ])('still finds the cue in %s', (text, cue) => {
    expect(correctionCue(text)).toBe(cue);
  });
  it('"after all" before a noun phrase is no cue', () => {
    expect(correctionCue("I'll need new boots after all these hikes.")).not.toBe('after all');
  });
});

describe('explicit-cue: the cue must speak to the old statement', () => {
  it.each([
    // a strong cue in a turn that shares a word or two with the old one
    ['Family time is what I cherish most.', 'Great to hear! Actually, I took my family sailing on the lake last week, it was lovely.'],
    ['I made lemon sorbet last Friday for my book club.', 'Something new happened: on Monday I taught a sorbet class at the community centre!'],
    ['The training helped me a lot.', 'Yoga really changed my view on stress, I sleep much better.'],
    ['I love my garden, it keeps me calm.', 'It was actually kind of fun to plant the tomatoes with the kids.'],
    // only a question in one of them: a question asserts nothing
    ['Anything exciting going on with you?', "Actually, I've been busy painting the kitchen."],
    ['I started volunteering at the animal shelter.', 'Nice! What have you been up to since you started at the shelter?'],
    // the same thing said again, with more: nothing is said in place of anything
    ["I'll definitely check them out.", "Actually, I haven't read them yet but I'll definitely check them out."],
    // an answer that opens with "No"
    ['That race looks fun, did everyone get to try?', "No, I haven't tried it yet. It sounds like a great way to push yourself."],
      // the same ending told on both sides: one event, told twice (LoCoMo conv-30)
    ['Sorry about your job Jon, but starting your own business sounds awesome! Unfortunately, I also lost my job at Door Dash this month.', "Ha, yeah, Jon. I've been one 'cause I lost my job. I opened an online clothing store."],
    // a date said on both sides, and nothing else in common
    ['We got married in June 2015.', 'We moved into this house in June 2015.'],
])('%s / %s is no correction', (a, b) => {
    expect(rel(a, b).kind).not.toBe('corrects');
  });
  it('greeting names are not values: "Thanks, Mel!" / "Thanks, Melanie!" with a weak cue', () => {
    expect(rel('Thanks, Mel! I finally finished the mural downtown.', 'Thanks, Melanie! Now I want to start a new mural for the school.').kind).not.toBe('corrects');
  });
  it.each([
    ['My favorite color is blue.', 'Actually, my favorite color is orange, not blue.'],
    ['My bike is in the garage.', 'Scratch that, my bike is in the shed.'],
    ['My anniversary is June 3.', 'Scratch that. It is June 13 and I always mix them up.'],
    ['My sister lives in Paris.', 'Sorry, my mistake earlier! My sister lives in Lyon.'],
    ['I live in Manchester.', "Actually, it's Leeds."],
    ['I live in Manchester.', 'I moved to Leeds last month.'],
    ['I work at Acme Corp.', 'I just started a new job at Globex.'],
    ['I take vitamin D.', 'I stopped taking vitamin D.'],
    ["Hi Sam! It's been busy. I'm really enjoying my new job. The team is great.", 'Hey Sam, crazy news. I lost my job at the engineering firm. They went bust.'],
  ])('%s / %s still corrects', (a, b) => {
    expect(rel(a, b)).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });
});

describe('polarity: the negation must bear on what both say', () => {
  it.each([
    ['Keep going and never give up!', 'Keep it up!'],
    ["Thanks! Won't let anything hold me back!", 'Thanks!'],
    ["Let's make great memories at the opening tomorrow!", "Can't wait for the opening tomorrow!"],
    ['No worries, you have tons of talent!', 'You have so much talent!'],
  ])('%s / %s is no correction', (a, b) => {
    expect(rel(a, b).kind).not.toBe('corrects');
  });
  it.each([
    ['I like jazz.', "I don't like jazz."],
    ["I'm allergic to penicillin.", "I'm not allergic to penicillin after all, the test came back negative."],
    ['I like olives.', 'I hate olives.'],
    ['I eat pork.', "I can't stand pork."],
  ])('%s / %s still corrects', (a, b) => {
    expect(rel(a, b)).toMatchObject({ kind: 'corrects' });
  });
});

describe('new-value: only my own single favourite', () => {
  it.each([
    ['Mango sorbet is one of my favorite desserts, as you can tell.', 'My favorite dessert is a cherry pie with almond crust.'],
    ["What's your favorite game right now?", "So what's your favorite game? Mine changes every week."],
    ['That shelf is filled with my favorite fantasy novels.', "'Dune' is one of my favorite fantasy books."],
  ])('%s / %s is no correction', (a, b) => {
    expect(rel(a, b).kind).not.toBe('corrects');
  });
  it('still corrects a favourite given a new value', () => {
    expect(rel('My favourite colour is green.', 'My favorite color is purple.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
  });
});

describe('vocatives', () => {
  it('finds the names of the people spoken to', () => {
    expect([...vocatives('Thanks, Mel! That means a lot.')]).toEqual(['mel']);
    expect([...vocatives('Hey John, long time no see!')]).toEqual(['john']);
    expect([...vocatives('Yeah, Maria. We can do it.')]).toEqual(['maria']);
  });
  it('leaves names that are said about someone', () => {
    expect([...vocatives('Owen, my brother, lives in Bristol.')]).toEqual([]);
    expect([...vocatives('I met Ana in Lisbon.')]).toEqual([]);
  });
});

describe('recognition on chat turns', () => {
  const T = { close: 0.875, related: 0.75, topic: 0.65, recallFloor: 0.4 };
  const cand = (id: string, text: string, score: number, entities: string[]): Candidate => ({
    id, text, normalized: text.toLowerCase(), type: 'FACT', entities, themes: [], messageId: null, score,
  });
  it('a later turn of the same speaker does not supersede an earlier one', () => {
    const d = decide(
      { text: 'Hey Jo, hope all is good! I had a quiet weekend after we went hiking with the kids. What have you been up to?', normalized: 'x', type: 'FACT', entities: ['Nate'], themes: [], previousSentence: null, messageId: null },
      [cand('a', "Hey Jo! I'm swamped with the kids and work. What's up with you? Anything new?", 0.8, ['Nate'])], T,
    );
    expect(d.action).not.toBe('correct');
  });
});

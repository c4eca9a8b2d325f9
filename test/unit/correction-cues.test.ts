/**
 * Correction cues (src/core/correction-cues.ts): the words people use when they take back or update
 * something, as they type them. Sentences of our own, none from an evaluation file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { correctionCue } from '../../src/core/conflicts.js';
import { useWordNet } from '../helpers/lexicon.js';
import { relateAlone as rel } from '../helpers/statements.js';

describe('correctionCue', () => {
  it.each([
    ['Actually, my favorite color is orange.', 'actually'],
    ['Scratch that, the meeting is on Wednesday.', 'scratch that'],
    ["I don't eat meat any more.", 'any more'],
    ['I no longer work there.', 'no longer'],
    ['My favorite color is orange, not blue.', 'not blue'],
    ['Send it to Ben instead of Ana.', 'instead of ana'],
    ['I was wrong, it is Lyon.', 'i was wrong'],
    ['Sorry, I got that wrong: it is June 13.', 'got that wrong'],
    ['No wait, it starts at 8:45.', 'no wait'],
    ['Correction: Owen lives in Bath.', 'correction'],
    ['My flight got moved to Saturday.', 'got moved'],
    ['I moved to Leeds last month.', 'moved to'],
    ['My rent went up to 1,020 pounds.', 'went up to'],
    ["I'm down to 78 kilos.", "'m down to"],
    ['I turned 35 today.', 'turned 35'],
    ['I have three kids now.', 'now'],
    ['My new phone number ends in 9012.', 'new'],
    ['I got engaged to Alex.', 'got engaged'],
    // said without its "I", as chat does; a change said with its object between; one thing for another in the plural
    ['Sold the Focus in April.', 'sold'],
    ['Started at Stripe this week.', 'started at'],
    ['Upgraded the desktop to Windows 11.', 'upgraded the desktop to'],
    ['We switched banks in May.', 'switched banks'],
    ['Switch to American spelling please.', 'switch to'],
    ["Landlord's put the rent up to £1,340 a month.", 'put the rent up to'],
    ['I moved all my savings over to Chase.', 'moved all my savings over'],
    ['We had to move the trip to August.', 'had to move'],
    // a doing or a liking ended; someone's leaving said with "'s" (has)
    ['We bought a house, so no more renting for us.', 'no more'],
    ["I've gone off coffee completely.", "i've gone off"],
    ["I'm done with BA after the last trip.", "i'm done with"],
    ["Rob's left Deloitte.", "'s left"],
    ["Sorry, I got Leo's age wrong: he's 8.", "got leo's age wrong"],
    // a time then the one it replaces, typed without a comma; when a new arrangement starts
    ['acme call is wed 4:30 not 3', '4:30 not 3'],
    ["Swimming's on Sundays at 4pm from this term.", 'from this term'],
    // ended or withdrawn from; a life ended or begun; someone's leaving
    ["Cut sugar out of my tea completely, doctor's orders.", 'cut'],
    ['Cancelled Netflix yesterday.', 'cancelled'],
    ['I dropped out of the UCL masters in November.', 'i dropped out'],
    ['Traded the Focus in for a used Skoda.', 'traded'],
    ['psychiatrist has weaned me off the sertraline', 'weaned me off'],
    ['We had to have Max put to sleep last week.', 'put to sleep'],
    ['Beth had the baby on Saturday!!', 'had the baby'],
    ['Mum was discharged on Tuesday.', 'was discharged'],
    ['Sarah left the company last month.', 'left'],
    ["We've had to raise the food shop budget to £110 a week.", 'raise the food shop budget to'],
    ['Can you call me Kate from here on?', 'from here on'],
    ['Raj has been made deputy head in Harrow, he left Kingsway in July.', 'he left'],
    ["Oliver's quit Fulwood Rangers.", "'s quit"],
    ['We pulled her out of Moorside.', 'pulled her out of'],
    // an ending said of anyone, with its thing after it; a post lost; a place of work left, named as typed
    ['Felix gave up violin in September.', 'gave up'],
    ['I migrated off LastPass to Bitwarden.', 'migrated off'],
    ['We replaced the old boiler with a heat pump.', 'replaced'],
    ['Mum closed her shop in March.', 'closed'],
    ['Dad sold his van.', 'sold'],
    ['My brother ditched his gym membership.', 'ditched'],
    ['She was made redundant in May.', 'was made redundant'],
    ['I left Deloitte last month and joined KPMG.', 'left'],
    ['Tom quit Google to start his own thing.', 'quit'],
  ])('finds the cue in %s', (text, cue) => {
    expect(correctionCue(text)).toBe(cue);
  });
  it.each([
    'My brother Owen lives in Bristol.',
    'I have two kids.',
    'My colleague Owen is moving to Berlin next month.',
    'Not bad at all, thanks.',
    'I like it not only for the price.',
    "What's left of the cake is in the fridge.",
    'I switched on the TV for the news.',
    'I went back to Leeds for Christmas.',
    // a push to do something is no move; a loss told as a reason is no news
    'Losing my job pushed me to take the plunge.',
    'Since I lost my job at Door Dash, things have been tough.',
    // a thing left somewhere is no leaving
    'She left her keys at work.',
    // a thing left with someone, a day's leaving, a time clause, a wish, a question's wish, a post held before
    'I left Tom a message.',
    'I left Tesco early today because I felt ill.',
    'Since I left Leeds I have been happier.',
    'I want to sell the van.',
    "I'd never give up coffee.",
    'My husband got fired from his first job in 2010.',
  ])('finds none in %s', (text) => {
    expect(correctionCue(text)).toBeNull();
  });
  it('prefers a strong cue to a weak one', () => {
    expect(correctionCue("I'm not vegetarian any more, I eat fish now.")).toBe('any more');
  });
});

describe('an ending said of anyone ends the thing it names, in the old word or another of its sense', () => {
  beforeAll(useWordNet, 120_000);
  it.each([
    ['My son Felix plays the violin.', 'Felix gave up violin in September.'],
    ['My password manager is LastPass.', 'I migrated off LastPass to Bitwarden.'],
    ['I work at Deloitte as an auditor.', 'I left Deloitte last month and joined KPMG.'],
    ['Our boiler is a Worcester Bosch.', 'We replaced the old Worcester Bosch boiler with a heat pump.'],
    // (movies / films: one sense in WordNet)
    ['I love horror films.', "I've gone off horror movies completely, can't watch them anymore."],
  ])('%s / %s corrects', (a, b) => {
    expect(rel(a, b).kind).toBe('corrects');
  });
  it.each([
    // a part replaced, another's thing, a thing left with someone, another of one's things given up
    ['My phone is an iPhone 13.', 'I replaced the screen on my iPhone 13.'],
    ['I drive a Ford Focus.', 'My neighbour sold his Ford Focus.'],
    ['I work at Deloitte.', 'I left Deloitte a voicemail about the invoice.'],
    ['My son Felix plays the violin.', 'Felix gave up football in September.'],
    ['I work at Tesco.', 'I left Tesco early today because I felt ill.'],
  ])('%s / %s does not', (a, b) => {
    expect(rel(a, b).kind).not.toBe('corrects');
  });
});

/**
 * The conflict rules on wordings a caller's restatements and corrections take (docs/corrections.md):
 * a subject's value is single only for one predicate, "stop doing" denies doing, whose thing a
 * fact is about, a value written two ways. Sentences of our own, none from an evaluation file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { polarity } from '../../src/core/polarity.js';
import { useWordNet } from '../helpers/lexicon.js';
import { relateAlone as rel, valueKinds as kinds } from '../helpers/statements.js';

beforeAll(useWordNet, 120_000);

describe('a subject has one value per predicate (new-value)', () => {
  it('corrects the same predicate, keeps another predicate apart', () => {
    expect(rel('My cousin Priya lives in Leeds.', 'My cousin Priya lives in York.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    const other = rel('My cousin Priya lives in Leeds.', 'My cousin Priya works in York.');
    expect(other.kind).not.toBe('corrects');
    expect(other).toMatchObject({ kind: 'distinct' });
  });
  it('takes a form of "be" as the same predicate', () => {
    expect(rel('The school run is at 8:15.', 'The school run starts at 8:40.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
  });
});

describe('"stop doing" denies doing (polarity)', () => {
  it('reads stop / quit / give up before a verb in -ing as a negation', () => {
    expect(polarity('Stop reminding me to stretch.')).toBe('negative');
    expect(polarity("I've given up eating meat.")).toBe('negative');
    // (asked to stop, it is also a cue: the instruction ends either way)
    expect(rel('Remind me to stretch every hour.', 'Stop reminding me to stretch every hour.')).toMatchObject({ kind: 'corrects' });
  });
  it('not after a negation, and not "stop by"', () => {
    expect(polarity("I can't stop humming that song.")).toBe('negative');
    expect(rel('I hum that song all day.', "I can't stop humming that song.").kind).not.toBe('corrects');
    expect(polarity('Stop by the bakery on Fridays.')).toBe('positive');
  });
});

describe('who the fact is about', () => {
  it('a clause owning up to a mistake names no subject', () => {
    expect(rel("My uncle Raj's birthday is 4 May.", "My mistake, I had it wrong: Raj's birthday is 14 May.")).toMatchObject({ kind: 'corrects' });
  });
  it('one thing, another owner', () => {
    expect(rel('My bike is a red Brompton.', "My son's bike is a red Brompton.", false)).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel("My dog's bed is by the radiator.", "My dog's bed is by the radiator now.").kind).not.toBe('distinct');
  });
  it('a possessed phrase ends where its nouns end; a synonym is the same thing', () => {
    expect(rel('My study faces the garden.', 'My garage faces the garden.', false)).toMatchObject({ kind: 'distinct', rule: 'different-thing' });
    expect(rel('My favourite film is Heat.', 'My favorite movie is Heat.', false)).toEqual({ kind: 'compatible' });
  });
  it('one stretch swapped and said as one more ("too", "also", "as well") is a second fact (additive)', () => {
    expect(rel('I drink coffee in the morning.', 'I drink coffee in the evening too.')).toMatchObject({ kind: 'distinct', rule: 'additive' });
    expect(rel('I walk the dog in the morning.', 'I also walk the dog in the evening.')).toMatchObject({ kind: 'distinct', rule: 'additive' });
    // nothing swapped: not this rule
    expect(rel('I love jazz.', 'I love jazz too.')).toEqual({ kind: 'compatible' });
    // swapped without saying "too": not this rule (another rule may decide)
    expect(rel('I drink coffee in the morning.', 'I drink coffee in the evening.')).not.toMatchObject({ rule: 'additive' });
  });
  it('a change cue speaks to the old sentence that names what it changes: "I sold the Fiesta", "switched to soy milk"', () => {
    expect(rel('My car is a red Fiesta.', 'I sold the Fiesta and bought a blue Corsa.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I drink oat milk.', "I've switched to soy milk.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // a thing ended may be the cue's subject: "Luna passed away"
    expect(rel('My cat Luna is shy.', 'Luna passed away last week.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // the words after a cue end at a time said after them: "I finished Dune last night" names Dune
    expect(rel("I'm reading Dune at the moment.", 'I finished Dune last night.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I drive a Ford Focus.', 'I sold the Focus last weekend.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // the head of what a cue names is the thing: "my Apple Watch" is a watch; a change to what the old sentence says
    // already is its result told; someone else's change to it is not the person's
    expect(rel('I work at Apple.', 'I sold my old Apple Watch.').kind).not.toBe('corrects');
    expect(rel('My phone is an iPhone 12.', 'I changed my phone case.').kind).not.toBe('corrects');
    expect(rel('I drink oat milk.', 'I switched to oat milk years ago.').kind).not.toBe('corrects');
    expect(rel('I drink oat milk.', 'The café near work switched to oat milk.').kind).not.toBe('corrects');
    // the thing changed not said in the old sentence: not this way
    expect(rel('I drink oat milk.', "I've switched to a standing desk.").kind).not.toBe('corrects');
  });
  it('a thing sold or given away is the thing the cue names; the words before it only say which one', () => {
    expect(rel('I work at Apple.', 'I sold my Apple shares.').kind).not.toBe('corrects');
    expect(rel('I drive a Tesla.', 'I gave away my Tesla mug.').kind).not.toBe('corrects');
    // the thing itself said in the old sentence, or named by its own name: the cue ends it
    expect(rel('I have a flat in Leeds.', 'I sold my Leeds flat.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I drive a Tesla.', 'I sold my Tesla last month.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // a cue that ends a relation, not a thing that changes hands, still names it by its words: "my Apple job"
    expect(rel('I work at Apple.', 'I quit my Apple job.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });
  it('someone who changes the person\'s own thing changes the person\'s fact: "My doctor upped my sertraline to 100mg."', () => {
    expect(rel('I take 50mg of sertraline.', 'My doctor upped my sertraline to 100mg.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // their own change stays theirs
    expect(rel('I take 50mg of sertraline.', 'My doctor switched to a new practice.').kind).not.toBe('corrects');
  });
  it('a change said of "our" thing, or a return said as done, is a change cue', () => {
    expect(rel('My mortgage is with Nationwide.', 'We switched our mortgage to Halifax.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I work four days a week.', "I've gone back to working five days a week.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // a trip back somewhere is no return of a state
    expect(rel('I live in Leeds.', 'I went back to Leeds for Christmas.').kind).not.toBe('corrects');
  });
  it('what the person did, said to be over in fewer words, ended (state-over): "I used to smoke, but I quit."', () => {
    expect(rel('I smoke about ten cigarettes a day.', 'I used to smoke, but I quit last year.')).toMatchObject({ kind: 'corrects', rule: 'state-over' });
    // something else said to be over ends nothing of it
    expect(rel('I smoke about ten cigarettes a day.', 'I used to smoke cigars.').kind).not.toBe('corrects');
  });
  it('one unit of time said with "a" / "an" is a length: "My commute is 40 minutes." / "... an hour now"', () => {
    expect(kinds('My commute is an hour.')).toEqual(['quantity:1|hour']);
    expect(kinds('I earn £10 an hour.')).toEqual(['quantity:10']);
    // a part of the day said as when is a value ("Good morning" is none)
    expect(kinds('I drink coffee every morning at 7am.')).toEqual(['daypart:morning', 'time:7:00']);
    expect(kinds('Good morning! I went hiking.')).toEqual([]);
    expect(rel('I drink coffee in the morning.', 'I drink too much coffee in the evening.')).toMatchObject({ kind: 'distinct', rule: 'value-mismatch' });
    expect(rel('I go running in the morning.', 'I go running in the evening now.')).toMatchObject({ kind: 'corrects' });
    // how often, in chat's shorthand
    expect(kinds('I hit the gym 3x a week.')).toEqual(['number:3/week']);
    expect(kinds('I go to the gym three times a week.')).toEqual(['number:3/week']);
    expect(rel('My commute is 40 minutes.', "My commute is an hour now that we've moved.")).toMatchObject({ kind: 'corrects' });
  });
  it('a cue\'s subject names what changed: "Dad moved into a care home", "Ella changed schools", "jake and i broke up"', () => {
    expect(rel('My dad lives with us.', 'Dad moved into a care home in Harrogate last month.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("My daughter Ella goes to St Mary's Primary.", "Ella changed schools in September, she's at Oakfield Academy.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My boyfriend is called Jake.', 'jake and i broke up in august')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // someone else moving says nothing of the person's home
    expect(rel('My dad lives with us.', 'My neighbour moved into a care home.').kind).not.toBe('corrects');
    // someone moving or changing something ends what was said of where they are, not of what they like
    expect(rel('Callum loves football.', 'Callum moved out to Valencia in January.').kind).not.toBe('corrects');
    expect(rel('My daughter Ella loves dancing.', "Ella changed schools in September, she's at Oakfield Academy.").kind).not.toBe('corrects');
  });
  it('a contrast naming what the old statement set aside too is the same choice: "tea over coffee" / "tea rather than coffee"', () => {
    expect(rel('I prefer tea over coffee.', "Given the choice I'll always pick tea rather than coffee.").kind).not.toBe('corrects');
    expect(rel('I go to the gym on Mondays.', 'I go to yoga on Mondays instead of the gym.')).toMatchObject({ kind: 'corrects' });
  });
  it('an order opens with its verb, not a name: "Use British spelling" / "Switch to American spelling"', () => {
    expect(rel('Use British spelling in everything you write for me.', 'Switch to American spelling please, my new clients are all in the US.')).toMatchObject({ kind: 'corrects' });
  });
  it('an ending told twice is one change; a change told, then its result "now", is one fact', () => {
    expect(rel("Rob's left Deloitte.", "Rob doesn't work at Deloitte any more.").kind).not.toBe('corrects');
    expect(rel("I've gone off coffee.", "I don't really like coffee anymore.")).not.toMatchObject({ rule: 'explicit-cue' });
    expect(rel('Callum moved to Valencia.', 'Callum lives in Valencia now.').kind).not.toBe('corrects');
  });
  it('a thing left somewhere, or a group left, ends no post: "My wife\'s left her phone at work"', () => {
    expect(rel('My wife works for the NHS.', "My wife's left her phone at work.").kind).not.toBe('corrects');
    expect(rel('Sarah is on the school PTA.', "Sarah's left the group chat.").kind).not.toBe('corrects');
    // leaving a company or a job ends what was said of the one who left
    expect(rel('My manager is Priya Shah.', "Priya's left the company; I report to Daniel Owusu these days.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My daughter Maisie does ballet.', "Maisie's given up ballet.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My partner is a teacher.', 'My partner quit teaching and is a paramedic now.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('We own a caravan in Whitby.', "We've sold the Whitby caravan.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I drink three coffees a day.', "I've gone off coffee completely.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });
  it('someone else\'s thing changed is theirs, and an earlier thing of one\'s is another thing', () => {
    expect(rel('I take 50mg of sertraline.', "My doctor upped my mum's sertraline to 100mg.").kind).not.toBe('corrects');
    expect(rel('My car is blue.', 'My first car was blue.')).toMatchObject({ kind: 'distinct', rule: 'different-thing' });
    expect(rel('My car is blue.', 'My car was blue before I had it resprayed red.')).toMatchObject({ kind: 'corrects' });
  });
  it('a choice turned round is a correction: "I prefer tea over coffee." / "I prefer coffee over tea these days."', () => {
    expect(rel('I prefer tea over coffee.', 'I prefer coffee over tea these days.')).toMatchObject({ kind: 'corrects', rule: 'set-aside' });
    expect(rel('I prefer morning meetings to afternoon ones.', "Actually I'd rather have meetings in the afternoon than the morning.")).toMatchObject({ kind: 'corrects' });
    expect(rel('I swapped the violin for the cello.', 'I play the cello now instead of the violin.').kind).not.toBe('corrects');
    expect(rel('I prefer tea over coffee.', 'I prefer tea over juice.')).toMatchObject({ kind: 'distinct', rule: 'multi-valued' });
  });
  it('a time corrected in chat\'s shorthand, or a new arrangement from a term on', () => {
    expect(rel("I've got a 3pm call with Acme on Wednesday.", 'acme call is wed 4:30 not 3')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("The kids' swimming lessons are Saturday at 9.", "Swimming's on Sundays at 4pm from this term.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });
  it('ended, withdrawn from, or someone\'s leaving names what the old sentence said', () => {
    expect(rel('I pay £12.99 a month for Netflix.', 'Cancelled Netflix yesterday, wasn\'t watching it enough.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I bank with Barclays.', 'Moved all my accounts over to Monzo in January and closed the Barclays one.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My line manager is Sarah Collins.', 'Sarah left the company last month so I report to Dev Patel.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My sister Beth is pregnant, due in October.', 'Beth had the baby on Saturday!!')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My partner is called Jamie.', 'Jamie and I split up in March.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // a request asked as a question is an instruction; "too" before a word is a degree, not one more
    expect(rel('Call me Katherine.', 'Can you call me Kate from here on? Katherine feels too formal.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // someone who left a thing somewhere ends nothing said of them
    expect(rel('My friend Tom lives in Leeds.', 'Tom left the door open.').kind).not.toBe('corrects');
  });
  it('handed over, taken off, gone back to a doing', () => {
    expect(rel('I have a PS5.', 'I gave my PS5 to my nephew.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("I'm on 20mg of propranolol.", 'The GP has taken me off propranolol.')).toMatchObject({ kind: 'corrects' });
    expect(rel("I'm not seeing anyone.", "I've started dating again and met someone lovely.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
  });
  it('a relationship status is one thing: "I\'m single." / "I\'ve got a girlfriend now."', () => {
    expect(rel("I'm single.", "I've got a girlfriend now.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel("I'm single.", "I've been seeing someone since February.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel("I'm married.", "I'm married with two kids.")).toEqual({ kind: 'compatible' });
  });
  it('what the person earns is one value: "I earn £35,000 a year." / "I\'m on £40,000 now."', () => {
    expect(rel('I earn £35,000 a year.', "I got a raise, I'm on £40,000 now.")).toMatchObject({ kind: 'corrects' });
    expect(rel('I earn £35,000 a year.', 'I got a pay rise to £38,000.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('I earn £35,000 a year.', 'My salary is £35k.')).toEqual({ kind: 'compatible' });
    // a dose is not an income
    expect(rel("I'm on 20mg of citalopram.", "I'm on £40,000 now.").kind).not.toBe('corrects');
  });
  it('a weight with its unit stuck on is that weight, not thousands: "80kg" is "80 kilos", "80k" is 80,000', () => {
    expect(kinds('I weigh 80kg.')).toEqual(['quantity:80|kg']);
    expect(kinds('I earn 80k.')).toEqual(['quantity:80k']);
    expect(rel('I weigh 80kg.', "I'm 80 kilos.").kind).not.toBe('corrects');
    expect(rel('I weigh 80kg.', "I'm 74 kilos now.")).toMatchObject({ kind: 'corrects' });
  });
  it('a length of time in another unit is the same length: "two years" / "24 months", "an hour" / "60 minutes"', () => {
    expect(rel("I've been learning the guitar for about two years.", "I've been learning the guitar for roughly 24 months.").kind).not.toBe('distinct');
    expect(rel('My commute takes an hour.', 'My commute is 60 minutes.').kind).toBe('compatible');
    expect(rel('My commute takes an hour.', 'My commute is 45 minutes now.')).toMatchObject({ kind: 'corrects' });
    expect(rel('The course lasts two weeks.', 'The course is 14 days long.').kind).toBe('compatible');
    // (a race's time in hours, minutes and seconds is a length too)
    expect(kinds('I ran it in 2:04:37.')).toEqual(['quantity:7477|second']);
    expect(rel('My half marathon time was 2:04:37.', 'Actually my half marathon time was 2:06:12.')).toMatchObject({ kind: 'corrects' });
  });
  it('a time the statement is dated by, or the same thing told in the past, is not another thing of the person\'s', () => {
    expect(rel('My doctor put me on sertraline, 50 mg every morning.', "Dose went up at my follow-up: it's 100 mg of sertraline now.")).toMatchObject({ kind: 'corrects' });
    expect(rel('Ran my first half marathon on Sunday in 2:04:37.', 'Oops, my half marathon time was actually 2:06:12.')).toMatchObject({ kind: 'corrects' });
    // the thing now and an earlier one are two
    expect(rel('My car is blue.', 'My first car was red.')).toMatchObject({ kind: 'distinct', rule: 'different-thing' });
  });
  it('a time and a date as people type them: "half three", a date in figures when it can be read one way only', () => {
    expect(kinds('Pick-up is at half six.')).toEqual(['time:~6:30']);
    expect(kinds('See you at half three in the afternoon.')).toEqual(['time:15:30']);
    expect(kinds('It took half an hour.')).toEqual([]);
    expect(kinds('Our wedding day was 09/09/2016.')).toEqual(['date:09-09', 'year:2016']);
    expect(kinds('Born 23/4/1990.')).toEqual(['date:04-23', 'year:1990']);
    expect(kinds("Elsie's birthday is the third of June.")).toEqual(['date:06-03']);
    // both orders a date, or no date said: numbers as before
    expect(kinds('Due on 3/4.')).toEqual(['number:3', 'number:4']);
    expect(kinds('We are open 24/7.')).toEqual(['number:24', 'number:7']);
  });
  it('a change told by the thing changed inside its cue, a level halved, plans changed, a doing over, a contrast naming the old value', () => {
    expect(rel('My doctor is Dr. Shah at the Park Surgery.', 'I changed doctors, I see Dr. Lowe now')).toMatchObject({ kind: 'corrects' });
    expect(rel('The school play is on March 3 at 7pm.', 'the school moved the play to march 10, same time')).toMatchObject({ kind: 'corrects' });
    expect(rel('The essay deadline is the 12th.', 'my tutor extended the essay deadline to the 19th')).toMatchObject({ kind: 'corrects' });
    expect(rel('Mum takes 20mg of simvastatin.', "mum's simvastatin has been doubled to 40mg")).toMatchObject({ kind: 'corrects' });
    expect(rel('We are spending Christmas at home this year.', 'change of plans, Christmas is at my brother\'s this year')).toMatchObject({ kind: 'corrects' });
    expect(rel('I lease my car.', 'bought the car outright!! not leasing anymore')).toMatchObject({ kind: 'corrects' });
    expect(rel("I'm vegan.", "I've started eating eggs so I'm vegetarian now rather than vegan")).toMatchObject({ kind: 'corrects' });
    expect(rel('We live at 4 Mill Lane.', 'we moved house - the new address is 9 Orchard Way')).toMatchObject({ kind: 'corrects' });
    expect(rel('I subscribe to Spotify.', 'cancelled my Spotify subscription yesterday')).toMatchObject({ kind: 'corrects' });
    expect(rel("I'm doing the London 10k in May.", 'no longer doing the London 10k - hurt my ankle')).toMatchObject({ kind: 'corrects' });
    // (the old sentence's days count as one value, the one the new sentence swaps)
    expect(rel('Swimming is Monday, Wednesday and Friday at 6am.', 'Actually my swimming days are now Tuesday and Thursday.')).toMatchObject({ kind: 'corrects' });
    expect(rel('We have 4 goats on the farm.', 'one of the goats got out last night, so we\'re down to 3 goats')).toMatchObject({ kind: 'corrects' });
  });

  it('a value a contrast sets aside is not said now: "Mondays now instead of weekly on Tuesdays"', () => {
    expect(rel('Our window cleaner comes every Tuesday.', 'the window cleaner comes every other Friday now instead of weekly on Tuesdays'))
      .toMatchObject({ kind: 'corrects', detail: expect.stringContaining('Friday') });
    // (the one set aside is the last said, as a whole word: "4:30 not 3" keeps 4:30)
    expect(rel('The call is at 3pm.', 'call is wed 4:30 not 3')).toMatchObject({ kind: 'corrects', detail: expect.stringContaining('4:30') });
    expect(rel('The dentist is on May 3.', 'The dentist is on May 3, not May 10.')).not.toMatchObject({ kind: 'corrects' });
    // (a time set aside by name speaks to the old sentence, though only times are said on both sides)
    expect(rel('We got engaged in October 2019.', 'Our engagement was in September 2019, not October.')).toMatchObject({ kind: 'corrects' });
  });

  it('the person\'s thing changed by someone else, a change asked for, a provider\'s account closed', () => {
    expect(rel('Recycling goes out on Thursday nights.', 'the council changed our recycling day to Tuesdays')).toMatchObject({ kind: 'corrects' });
    expect(rel('Remind me to water the plants on Friday at 6pm.', 'change the plant watering reminder to Sunday 10am')).toMatchObject({ kind: 'corrects' });
    expect(rel('I bank with Nationwide.', 'Closed my Nationwide account, everything is with Chase now.')).toMatchObject({ kind: 'corrects' });
    expect(rel('I have a Netflix subscription.', 'I cancelled my Netflix subscription last month.')).toMatchObject({ kind: 'corrects' });
    // (not working there: "I work at Monzo." / "I closed my Monzo account.")
    expect(rel('I work at Nationwide.', 'I closed my Nationwide account.')).not.toMatchObject({ kind: 'corrects' });
    expect(rel('The café switched to oat milk.', 'the café changed the menu to vegan food')).not.toMatchObject({ kind: 'corrects' });
  });

  it('one kind of a thing of the person\'s and another kind: neither corrects the other', () => {
    expect(rel('My piano lesson is at 5pm on Mondays.', 'Actually my guitar lesson is on Wednesdays.')).toMatchObject({ kind: 'distinct', rule: 'different-thing' });
    expect(rel('My car insurance renews in May.', 'My home insurance renews in June.')).toMatchObject({ kind: 'distinct', rule: 'different-thing' });
    // (the same kind in another word is the same thing)
    expect(rel('My dentist appointment is on May 3.', 'My dental appointment moved to May 10.')).toMatchObject({ kind: 'corrects' });
  });

  it('a school year and a job are one at a time; "lately" dates a change as "now" does', () => {
    expect(rel('My son is in Year 2.', 'My son started Year 3 in September.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('my daughter Ada is in 5th grade', 'Ada started 6th grade this fall')).toMatchObject({ kind: 'corrects' });
    expect(rel('My son is in Year 2.', 'My daughter is in Year 5.')).not.toMatchObject({ kind: 'corrects' });
    expect(rel('my son Eli is in 3rd grade', 'his sister Mia is in 4th grade')).not.toMatchObject({ kind: 'corrects' });
    expect(rel('I work as an accountant.', 'I retrained as a plumber last year.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('I get up at 7am.', "I've been getting up at 6 lately.")).toMatchObject({ kind: 'corrects' });
  });

  it('how the person has a thing, told again with the present set against the past, in other words', () => {
    expect(rel('I like my eggs runny.', "these days I'd rather have my eggs hard-boiled")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('I take my tea with lemon.', 'nowadays I take my tea with honey')).toMatchObject({ kind: 'corrects' });
    expect(rel('I take my tea black.', 'These days I have soy milk in my tea.')).toMatchObject({ kind: 'corrects' });
    // (not without the present set against the past, nor said again)
    expect(rel('I like my eggs runny.', "I'd rather have my eggs on toast")).not.toMatchObject({ kind: 'corrects' });
    expect(rel('I like my eggs runny.', 'these days I still like my eggs runny')).not.toMatchObject({ kind: 'corrects' });
  });

  it('no correction: a state already over, another one of ours, a part had replaced', () => {
    expect(rel('I used to work in Leeds.', 'I work in York now.')).not.toMatchObject({ kind: 'corrects' });
    expect(rel('Our cat Tibbles eats Whiskas.', 'our other cat Mog eats a different brand, Felix')).not.toMatchObject({ kind: 'corrects' });
    expect(rel('The bike had a new chain fitted in June.', 'the bike had its brakes replaced in June')).not.toMatchObject({ kind: 'corrects' });
    // (moved the thing, not another: the old sentence names no such thing)
    expect(rel('My dentist appointment is on May 3.', 'the gym moved my induction to May 10')).not.toMatchObject({ kind: 'corrects' });
  });

  it('a code digit by digit, a percent in words, a number opening a compound, a fraction', () => {
    expect(kinds('code for the garage: 4-4-7-1')).toEqual(['number:4471']);
    expect(kinds('The score was 3-1.')).toEqual(['number:3', 'number:1']);
    expect(kinds('I put 15% of my salary in.')).toEqual(kinds('fifteen percent of my pay goes in'));
    expect(kinds('I play five-a-side on Wednesdays.')).toEqual(['number:5', 'day:wednesday']);
    expect(kinds('a twenty-one-year-old')).toEqual(['number:21']);
    expect(kinds('a one-off payment')).toEqual([]);
    expect(kinds('He gets 1/2 cup of kibble.')).toEqual(['number:1/2']);
    expect(kinds('See you at half past two in the afternoon.')).toEqual(['time:14:30']);
    expect(kinds('See you at half past two.')).toEqual(['time:~2:30']);
    expect(kinds('conf w/ ms lindqvist tues 10 am')).toEqual(['day:tuesday', 'time:10:00']);
    expect(kinds('see you on sat')).toEqual(['day:saturday']);
    expect(kinds('I sat down in the sun.')).toEqual([]);
    expect(kinds('we live on floor 4')).toEqual(kinds('Our flat is on the fourth floor.'));
    expect(kinds('It renews on the first of each month.')).toEqual(kinds('It renews on the 1st of every month.'));
    expect(rel('the garage door code is 4471', 'code for the garage: 4-4-7-1')).not.toMatchObject({ kind: 'distinct' });
    expect(rel('I put 15% of my salary into my pension', 'fifteen percent of my pay goes into the pension')).not.toMatchObject({ kind: 'distinct' });
  });
  it('a level and an amount as chat types them: "down to 77kg now", "I\'m on 53k now", "48,000 a year"', () => {
    expect(rel('My weight is 82 kg.', 'down to 77kg now')).toMatchObject({ kind: 'corrects' });
    expect(rel('My salary is 48,000 a year.', "got a raise, I'm on 53k now")).toMatchObject({ kind: 'corrects' });
    expect(kinds('My salary is 48,000 a year.')).toEqual(['quantity:48000']);
    expect(rel('My salary is 48,000 a year.', "I'm on 48k.").kind).not.toBe('corrects');
  });
  it('what the person is called, however asked: "address me as" is "call me"', () => {
    expect(rel('Please address me as Jonathan.', 'You can just call me Jon from now on.')).toMatchObject({ kind: 'corrects' });
    expect(rel('Please address me as Jonathan.', "My son's name is Jon.").kind).not.toBe('corrects');
  });
  it('a trade at a place names an employer: a new job elsewhere corrects it', () => {
    expect(rel("I'm a software engineer at Monzo.", 'I started a new job at Revolut in January.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("I'm a big fan of Monzo.", 'I started a new job at Revolut in January.').kind).not.toBe('corrects');
    // who gives time, belongs or learns at a place is not employed there
    expect(rel("I'm a volunteer at the food bank.", "I started a new job at Sainsbury's.").kind).not.toBe('corrects');
    expect(rel("I'm a member at the golf club.", 'I started a new job at Tesco.').kind).not.toBe('corrects');
  });
  it('"be" before a participle says the participle: "live in Lagos" / "were both born in Kano" are two predicates', () => {
    expect(rel('My grandparents live in Lagos.', 'My grandparents were both born in Kano.').kind).not.toBe('corrects');
    expect(rel('My grandparents live in Lagos.', 'My grandparents live in Kano now.')).toMatchObject({ kind: 'corrects' });
    // "be" before "off" / "away" says a trip, not a home
    expect(rel('My parents live in Surrey.', 'My parents are off to Spain for a fortnight.').kind).not.toBe('corrects');
  });
  it('a mistake owned about someone\'s thing is a marker, not a subject: "I got Leo\'s age wrong — he\'s 8, not 7."', () => {
    expect(rel('My son Leo is 7.', "Sorry, I got Leo's age wrong earlier — he's 8, not 7.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("I'm a nurse at St Thomas' Hospital.", 'I left nursing last year and retrained as a paramedic.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });
  it('a count of another thing of one holder is no new value: "three bedrooms" / "two bathrooms"', () => {
    expect(rel('Our house has three bedrooms.', 'Our house has two bathrooms.')).toMatchObject({ kind: 'distinct', rule: 'different-thing' });
    expect(rel('Our house has three bedrooms.', 'Our house has four bedrooms.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    // a count and a position measure two things: "two bedrooms" / "the third floor"
    expect(rel('My flat has two bedrooms.', 'My flat is on the third floor.').kind).not.toBe('corrects');
    expect(rel('My flat is on the third floor.', 'My flat is on the fifth floor.')).toMatchObject({ kind: 'corrects' });
  });
  it('"now" with a stretch of up to three words swapped is a change: "I drive to work." / "I take the bus to work now."', () => {
    expect(rel('I drive to work.', 'I take the bus to work now.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // four words swapped: not read as one stretch
    expect(rel('I drive to work.', 'I take the number 12 bus to work now.').kind).not.toBe('corrects');
  });
  it('a compound is one thing written closed, hyphenated or open; its parts alone are not', () => {
    expect(rel('My stepdad is a plumber.', 'My step-dad is a plumber.', false)).toEqual({ kind: 'compatible' });
    expect(rel('My e-mail is on file.', 'My email is on file.', false)).toEqual({ kind: 'compatible' });
    expect(rel('My step dad is a plumber.', 'My stepdad is a plumber.', false)).toEqual({ kind: 'compatible' });
    expect(rel('My dad is a plumber.', 'My stepdad is a plumber.', false).kind).toBe('distinct');
  });
  it('one relation from its other end is another fact: who manages, teaches or coaches whom', () => {
    expect(rel("I'm Priya's tutor.", 'Priya is my tutor.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('Dev is my coach.', "I'm Dev's coach.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    // a role WordNet files under people, not in the list of family and social roles
    expect(rel("I'm Ada's godmother.", 'Ada is my godmother.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    // the same relation said two ways stays one
    expect(rel('Dev is my coach.', 'My coach is Dev.').kind).not.toBe('distinct');
  });
  it('someone by name is not the person: as the subject, or as the owner', () => {
    expect(rel("I'm allergic to latex and iodine.", 'Marta is allergic to latex and iodine.')).toEqual({
      kind: 'distinct', rule: 'different-subject', detail: 'i / name:marta',
    });
    expect(rel('My brother plays the oboe.', 'Kwame plays the oboe.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My usual train is the 7.40.', "Yusuf's usual train is the 7.40.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    // a noun that opens a sentence is no name, though capitalised: "Pottery is …"
    expect(rel('I find pottery relaxing and I go every week.', 'Ceramics is relaxing and I go every week.').kind).not.toBe('distinct');
    // the name said on the other side too, with the person in the sentence, or a day: one fact
    expect(rel('Kwame is my brother.', 'My brother is Kwame.').kind).not.toBe('distinct');
    expect(rel("I'm having lunch with Kwame on Friday.", 'Kwame is having lunch with me on Friday.').kind).not.toBe('distinct');
    expect(rel('Kwame and I are flying to Accra.', "I'm flying to Accra.").kind).not.toBe('distinct');
    expect(rel("Tuesday's rehearsal starts at 7.", 'My rehearsal starts at 7.').kind).not.toBe('distinct');
    expect(rel("Tomorrow's rehearsal starts at 7.", 'My rehearsal starts at 7.').kind).not.toBe('distinct');
  });
  it('"he", "she" or "the <role>" is someone else than the speaker; who they are is not decided', () => {
    expect(rel('I get migraines from red wine.', 'He gets migraines from red wine.')).toEqual({ kind: 'distinct', rule: 'different-subject', detail: 'i / he' });
    expect(rel("She's saving for a house in Cork.", "We're saving for a house in Cork.")).toEqual({ kind: 'distinct', rule: 'different-subject', detail: 'she / we' });
    // "they" is as often things as people
    expect(rel("I'm proud of my photos.", "Keep the photos, they're lovely.").kind).not.toBe('distinct');
    expect(rel('Our allotment is next to the railway.', 'Their allotment is next to the railway.')).toEqual({
      kind: 'distinct', rule: 'different-subject', detail: 'my allot / their allot',
    });
    expect(rel("My dad's van is white.", 'His van is white.').kind).not.toBe('distinct');
    // "the <role>" too: "The kids love pasta." is not "I love pasta.", and is "My kids love pasta."
    expect(rel('I love fresh pasta.', 'The kids love fresh pasta.')).toEqual({ kind: 'distinct', rule: 'different-subject', detail: 'i / the child' });
    expect(rel('My kids love fresh pasta.', 'The kids love fresh pasta.').kind).not.toBe('distinct');
    // against a role, or with the speaker in the sentence, nothing is decided by the pronoun
    expect(rel('My daughter gets migraines from red wine.', 'She gets migraines from red wine.').kind).not.toBe('distinct');
    expect(rel('I get a lift to the station.', 'She gives me a lift to the station.').kind).not.toBe('distinct');
  });
  it('all of one\'s own, or some of them: two facts', () => {
    expect(rel('Both my grandparents speak Welsh.', 'One of my grandparents speaks Welsh.')).toEqual({
      kind: 'distinct', rule: 'different-subject', detail: 'my grandparent: all / some',
    });
    expect(rel('My cousins are teachers.', 'Some of my cousins are teachers.')).toMatchObject({ kind: 'distinct' });
    expect(rel('Both my grandparents speak Welsh.', 'My grandparents both speak Welsh.')).toEqual({ kind: 'compatible' });
  });
  it('a verb with its particle is a verb of its own: "goes to" a school is "attends" it, no other action', () => {
    expect(rel('My nephew goes to Oakfield Academy.', 'My nephew attends Oakfield Academy.', false)).not.toMatchObject({ rule: 'other-action' });
    expect(rel('My nephew goes to Oakfield Academy.', 'My nephew teaches at Oakfield Academy.', false)).toMatchObject({ rule: 'other-action' });
  });
  it('"we\'ve moved to" gives the home a new value', () => {
    expect(rel('We live in Porto.', "We've moved to Braga, still unpacking.")).toMatchObject({ kind: 'corrects' });
  });
});

describe('a value written two ways', () => {
  it('reads "a.m." / "p.m.", scale words and accents', () => {
    expect(kinds('Dinner is at 7:30 p.m.')).toEqual(['time:19:30']);
    expect(kinds('I swim a thousand metres.')).toEqual(['quantity:1000']);
    expect(kinds('We raised two hundred pounds.')).toEqual(['quantity:200']);
    expect(kinds('I flew to Zürich.')).toEqual(['place:zurich']);
  });
  it('reads clock phrases and ordinal words after "the"', () => {
    expect(kinds('The bus leaves at half past seven.')).toEqual(kinds('The bus leaves at 7:30.'));
    expect(kinds('We eat at quarter to one.')).toEqual(['time:~12:45']);
    expect(kinds('We eat at quarter past 6.')).toEqual(['time:~6:15']);
    expect(kinds('Her office is on the third floor.')).toEqual(['number:3rd']);
    expect(kinds('Her office is on the 3rd floor.')).toEqual(['number:3rd']);
    expect(kinds('At first I disliked olives.')).toEqual([]);
  });
  it('"the second Tuesday" names a position, "a second car" adds one', () => {
    expect(rel('The choir meets on the first Tuesday of the month.', 'The choir meets on the second Thursday of the month.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('I have a car.', 'I bought a second car.').kind).not.toBe('corrects');
  });
  it('how often: "weekly", "every week", "once a week" are one value; "twice a week", "two times a week" another', () => {
    expect(kinds('I swim twice a week.')).toEqual(['number:2/week']);
    expect(kinds('I swim two times a week.')).toEqual(['number:2/week']);
    expect(kinds('Water the fern once every fortnight.')).toEqual(['number:1/fortnight']);
    expect(kinds('The bins go out weekly.')).toEqual(kinds('The bins go out every week.'));
    expect(kinds('I once lived in Lisbon.')).not.toContain('number:1');
    expect(rel('I do yoga four times a week.', 'I do yoga once a week.')).not.toEqual({ kind: 'compatible' });
    expect(rel('The bins go out weekly.', 'The bins go out fortnightly.')).not.toEqual({ kind: 'compatible' });
    expect(rel('I visit my gran once a month.', 'I visit my gran monthly.')).toEqual({ kind: 'compatible' });
  });
  it('the same value is no disagreement and is something said in common', () => {
    expect(rel('My niece Ola is 8.', 'My niece Ola is eight years old.', false)).toEqual({ kind: 'compatible' });
    expect(rel('The shop opens at 9am.', 'The shop opens at 9:00 a.m.', false)).toEqual({ kind: 'compatible' });
    expect(rel('I swim 1,500 metres every week.', 'I swim fifteen hundred metres every week.', false).kind).not.toBe('distinct');
    expect(rel("I'm flying to Malmö in June.", "I'm flying to Malmo in June.", false)).toEqual({ kind: 'compatible' });
  });
  it('a level changed with the thing said between the verb and its value', () => {
    expect(rel('My monthly savings target is 300 dollars.', "I've lowered my monthly savings target to 200 dollars.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('The kids go to bed at 8.', 'I put the kids to bed at 7.').kind).not.toBe('corrects');
  });
});

describe('a possessive opens a definite subject ("Mum\'s birthday is", "Owen\'s flat is")', () => {
  it('corrects a new value of it, the owner part of the subject; one of several ("Anna\'s brother") is not one subject', () => {
    expect(rel("Mum's birthday is in June.", "Mum's birthday is in July.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel("Owen's flat is in Leeds.", "Owen's flat is in York.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    // "my mum's birthday" and "Mum's birthday" are one subject
    expect(rel("My mum's birthday is on June 3.", "Mum's birthday is on June 5.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel("Anna's brother lives in Leeds.", "Anna's brother lives in York.").kind).not.toBe('corrects');
    expect(rel("My brother's flat is in Leeds.", "My brother's flat is in York.").kind).not.toBe('corrects');
    // a name is said of its owner: "my boss's name" is the boss
    expect(rel("My boss's name is Priya.", "My boss's name is Dana.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel("My brother Owen's flat is in Leeds.", "My brother Owen's flat is in York.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    // another owner is another subject
    expect(rel("Owen's flat is in Leeds.", "Priya's flat is in York.").kind).not.toBe('corrects');
    // another's relative is neither the person's own relative nor the other
    expect(rel('My boss is vegan.', "My boss's wife is vegan.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My wife is vegan.', "My boss's wife is vegan.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    // a role's thing without "my" is still theirs, not the person's: two facts, never one memory
    expect(rel('My car is a blue Volvo.', "Dad's car is a blue Volvo.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    // another's favourite is theirs: corrected by their own new favourite only
    expect(rel("Sam's favourite film is Alien.", "Sam's favourite film is Heat.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel("Sam's favourite film is Alien.", "Ana's favourite film is Heat.").kind).not.toBe('corrects');
    // "'s" that is "is" opens no subject
    expect(rel("Tom's going to Leeds.", "Tom's going to York.").kind).not.toBe('corrects');
    expect(rel("It's raining in Leeds.", "It's raining in York.").kind).not.toBe('corrects');
  });
});

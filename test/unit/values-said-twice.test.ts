/**
 * One value written two ways (forty-second round): a measure in another unit, a unit abbreviated,
 * an ordinal in words, an amount in words after "at", chat's asides. Each is read as the same
 * value, and a different value in another unit is still a different value.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sameValue } from '../../src/core/values.js';
import { sameMeasure } from '../../src/core/quantities.js';
import { useWordNet } from '../helpers/lexicon.js';
import { relateAlone as rel, valueKinds as kinds } from '../helpers/statements.js';

beforeAll(async () => {
  await useWordNet();
});

describe('a measure in another unit', () => {
  it('is the same measure when the less precise count, converted, rounds to the other as written', () => {
    expect(sameMeasure('1.82|m', '182|cm')).toBe(true);
    expect(sameMeasure('12|kg', '26.5|lb')).toBe(true);
    expect(sameMeasure('6|ft', '183|cm')).toBe(true);
    expect(sameMeasure('5|mile', '8|km')).toBe(true);
    expect(sameValue('quantity', '250|ml', '0.25|l')).toBe(true);
  });

  it('is another measure when it rounds elsewhere, or is another kind of measure', () => {
    expect(sameMeasure('80|kg', '12|stone')).toBe(false); // 76.2 kg
    expect(sameMeasure('1.8|m', '178|cm')).toBe(false);
    expect(sameMeasure('1.8|m', '175|cm')).toBe(false);
    expect(sameMeasure('2|mile', '3|km')).toBe(false); // 3.2 km, more than 5 % apart
    expect(sameMeasure('2|kg', '2|km')).toBe(false);
    expect(sameMeasure('60|minute', '1|kg')).toBe(false);
  });

  it('restates, and a new weight in another unit still corrects', () => {
    expect(rel("I'm 1.82 metres tall.", 'my height is 182 cm').kind).toBe('compatible');
    expect(rel('Our dog Pepper weighs 12 kg.', 'pepper weighs roughly 26.5 lbs').kind).toBe('compatible');
    expect(rel('I weigh 80 kg.', 'I weigh 12 stone now.')).toMatchObject({ kind: 'corrects' });
  });
});

describe('units and numbers as chat writes them', () => {
  it('reads "yrs" and "wks" as years and weeks', () => {
    expect(kinds('been learning cello for 3 yrs now')).toEqual(['quantity:3|year']);
    expect(kinds('off work for 2 wks')).toEqual(['quantity:2|week']);
    // the same length of time, written out: no word swapped for "now" to show
    expect(rel("I've been learning the cello for three years.", 'been learning cello for 3 yrs now').kind).toBe('compatible');
  });

  it('reads an ordinal in words, and an Nth birthday as turning N', () => {
    expect(kinds('the twenty-first of June')).toEqual(['date:06-21']);
    expect(kinds('her twenty-first')).toEqual(['number:21st']);
    expect(kinds('his ninetieth birthday')).toEqual(['number:90']);
    expect(kinds('her 21st birthday')).toEqual(['number:21']);
    expect(kinds('the fourth floor')).toEqual(['number:4th']);
    expect(kinds('at first')).toEqual([]);
    // numbers are never opposites of one another
    expect(rel('My grandfather Hiroshi turned 90 last week.', 'grandpa hiroshi had his ninetieth birthday last week').kind).toBe('compatible');
  });

  it('reads "at two hundred dollars" as an amount, not two o\'clock', () => {
    expect(kinds('I cap my restaurant spending at two hundred dollars per month.')).toEqual(['quantity:200']);
    expect(kinds('meet me at two')).toEqual(['time:~2:00']);
    expect(rel('My spending limit for eating out is $200 a month.', 'I cap my restaurant spending at two hundred dollars per month.').kind).toBe('compatible');
  });

  it("leaves chat's asides out of what a statement says: \"btw\", \"fyi\", \"pls\"", () => {
    expect(rel("btw i'm allergic to shellfish", "Turns out I'm not allergic to shellfish after all, the allergy test came back negative."))
      .toMatchObject({ kind: 'corrects' });
    expect(rel("I'm allergic to shellfish.", 'fyi I am allergic to shellfish').kind).toBe('compatible');
  });
});

describe('one thing by its value', () => {
  it('reads "the end of April" as its last day', () => {
    expect(kinds('renewed by the end of april')).toEqual(['date:04-30']);
    expect(kinds('at the end of the month')).toEqual([]);
    // (February's end is the 28th or the 29th: the month)
    expect(kinds('due at the end of February')).toEqual(['month:02']);
    // a month is said by a date in it: "in April" / "at the end of April"
    expect(rel('My lease ends in April.', 'My lease ends at the end of April.').kind).toBe('compatible');
    expect(rel('Remind me to renew the car insurance by 30 April.', 'need a reminder to get the car insurance renewed by the end of april').kind).toBe('compatible');
    expect(rel('Remind me to renew the car insurance by 30 April.', 'need a reminder to get the car insurance renewed by 28 April').kind).not.toBe('compatible');
  });

  it('one phone number said of both sides is one thing, whatever each calls it, when both are the person\'s own', () => {
    expect(rel('My mobile number is 0412 555 019.', 'my cell is 0412555019').kind).toBe('compatible');
    expect(rel("My wife's cell is 0412 555 019.", 'my mobile is 0412555019').kind).not.toBe('compatible');
    expect(rel('My mobile number is 0412 555 019.', 'my work phone is 0412555777').kind).not.toBe('compatible');
  });
});

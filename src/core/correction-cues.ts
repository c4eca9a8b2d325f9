/**
 * Correction cues: the words people use when they take back or update
 * something they said ("actually", "scratch that", "no longer", "not X",
 * "moved to", "turned 35"...). A cue alone proves nothing: the conflict rules
 * also ask for a difference between the old and the new statement.
 *
 * Each cue belongs to a family; a family that appears in the old statement
 * too ("Call me Sam, not Samuel." said twice) is part of how the fact is
 * phrased, not a new correction.
 */
import { memoByText, shared } from './memo.js';

export interface Cue {
  /** family of equivalent cues ("contrast" covers instead / instead of / rather than) */
  family: string;
  /** the words found, lower-cased */
  phrase: string;
  /**
   * A weak cue ("now", "new", "instead", "from now on") is also said about
   * plain news; it counts only with a differing value or a negation flip.
   */
  weak: boolean;
  /** for contrast cues ("not X", "instead of X", "rather than X"): the X named as the old content */
  replaced?: string;
}

/** A sentence opening with "Not" and a name or a number, then a comma: read on the text as typed (its capitals). */
const NOT_NAME_OPENING = /(?:^|[.!?]\s+)Not\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,2}|\d[\d.,:]*[\p{L}%]*)\s*,/u;

const NUM = '(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\\s](?:one|two|three|four|five|six|seven|eight|nine))?';

/** What follows "up to" / "down to" when it names a level: a number, possibly after a currency sign or "about". */
const LEVEL = `(?:about |around |almost |nearly |just |over |under |only )?(?:[$£€]\\s?)?(?:\\d|${NUM}\\b)`;

/** A thing left somewhere, not a place or a post left: "has left her phone at work", "'s left his keys in the car". */
const LEFT_SOMEWHERE = String.raw` (?:his|her|their|my|our|the|a|an|its) [a-z]+ (?:at|in|on|behind|with|outside|there|here|somewhere)\b`;

/**
 * A place of work, a post or a place left, named as typed (a capital after the verb): "I left Deloitte last month", "Tom quit
 * Google", "we left London in May". Not with a thing left to someone ("I left Tom a message", "left Mum a voicemail"), nor in
 * a time clause ("since I left Leeds"), a wish or an order ("I want to leave Acme", "never quit Acme"), nor a day's leaving
 * ("I left Tesco early today", "left Acme at 5").
 */
const LEFT_NAMED = /\b(?=left|quit)(?<!\b(?:[Ss]ince|[Ww]hen|[Aa]fter|[Bb]efore|[Uu]ntil|[Tt]ill|[Oo]nce|[Bb]ecause|[Ii]f) (?:\S+ ){0,3})(?<!\b(?:to|will|would|not|never|n't) )\b(?:left|quit)\s+(?=(?!(?:I|A|An|The|My|Our)\b)\p{Lu})(?!\p{Lu}[\p{L}'-]*\s+(?:a|an|the|some|my|his|her|their|our|early|late|at|on|for|around|by|before|after|today|tonight)\b)/u;

/** A day of the week as chat writes it: "tues", "weds", "thurs", "fri", "saturday". */
const WEEKDAY = String.raw`(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?s?|(?:wednes|satur)days?`;

/** [family, pattern, weak]; the pattern runs on the lower-cased text with apostrophes normalised (`AS_TYPED`: on the text as typed). */
const CUES: Array<[string, RegExp, boolean]> = [
  ['actually', /\bactually\b/, false],
  // "forget that" / "ignore that" as an order closing its clause ("Forget that, it's on Wednesday"), not "I won't
  // forget that" nor "don't forget that you have friends"
  ['scratch-that', /\bscratch that\b|(?:^|[,.;:!\u2014-]\s*|\b(?:oh|so|please|just|no|actually|wait|sorry)\s+)(?:forget|ignore) (?:that|what i said)\b(?=\s*(?:[,.;:!\u2014-]|$))/, false],
  ['wrong', /\bi (?:was|am|'m) (?:wrong|mistaken|confused)\b|\b(?:got|had|have|'ve|get) (?:that|it|this|those|them|(?:my|the|your|his|her|our|their|[a-z]+ ?'s) [a-z]+) (?:all )?wrong\b|\bi misspoke\b|\bmy (?:mistake|bad)\b|\bthat(?:'s| is| was) (?:wrong|not right|incorrect|not true)\b|\bi meant\b|\bi mis(?:read|typed|remembered|counted|heard|calculated|spelt|spelled)\b|(?:^|[,;:.!?\u2014-])\s*mis(?:read|typed|remembered|counted|heard|calculated|spelt|spelled) (?:the|my|it|that|this|what|his|her|their|our)\b/, false],
  ['no-wait', /\bno,? wait\b|^\s*wait\b/, false],
  ['correction', /\bcorrection\b|\bto correct (?:myself|that)\b|\blet me correct\b/, false],
  // "No, ..." opens an answer far more often than a correction ("No, I haven't tried it yet"): weak
  ['no', /^\s*(?:no|nope)\s*[,!.:;-]/, true],
  // ("no more renting": a doing ended; "no more" before a thing is weak, below)
  ['no-longer', /\bno longer\b|\bnot anymore\b|\bnot any more\b|\bno more(?= [a-z]{2,}ing\b)/, false],
  ['any-more', /\bany ?more\b(?=\s*(?:[,.;:!?)]|$|\b(?:since|because|as|now|so|but|and)\b))/, false],
  // "after all these games" is a time phrase, not the cue
  ['after-all', /\bafter all\b(?!\s+(?:the|these|those|this|that|my|your|our|his|her|their|its|of|day|night|week|year|time)\b)/, false],
  // "update:", "I updated my address"; not "keep you updated" nor "updated infrastructure"
  // (or plans said to have changed: "change of plans, Thanksgiving is at my sister's", "plans changed")
  ['update', /\bupdate\s*:|\b(?:i|we|i've|we've|have|has|just) updated\b|\bchange of plans?\b|\bplans? (?:have |has )?changed\b/, false],
  ['moved', /\b(?:moved|relocated)\s+(?:to|into|from|back|out|over to|(?:down|up) to|house|in with|away)\b|\b(?:got|been|was|were|has been|have been|is being) (?:moved|changed|rescheduled|pushed|cancel+ed|postponed|shifted|bumped)\b|\b(?:rescheduled|postponed|pushed back|brought forward|moved (?:up|forward|back)|cancel+ed|called off)\b|\b(?:moved|pushed|shifted|brought|bumped|extended)\s+(?:all\s+)?(?:my|our|the|his|her|their|it)\b[^.,;!?]{0,40}?\s(?:to|back|forward|up|over)\b|\bmoved (?:me|us)\b[^.,;!?]{0,40}?\s(?:to|back|forward|up)\b|\b(?:had|have|'ve|has|needed|need) to (?:move|reschedule|postpone|cancel|push back)\b|\b(?:pushed|moved|shifted|bumped) [a-z]+ (?:back |forward )?to(?= (?:\d|next\b|tomorrow\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b))/, false],
  // (a return is a change too, said as done: "I've gone back to working five days a week"; not "I went back to Leeds for Christmas")
  ['changed', new RegExp(String.raw`\b(?:changed|switched|swapped|converted|upgraded|downgraded)\s+(?:to|it|my|our|over|from|jobs?|careers?)\b|\bchanged (?:its|the|our|their)\b|\b(?:i've|we've|i have|we have) (?:now |just |since )?(?:gone|moved|switched) back to\b|(?:^|[.!?;]\s+|\b(?:i|we) )(?:went|gone) back to [a-z]{2,}ing\b` +
    // (what was changed said between: "upgraded the desktop to Windows 11", "swapped the violin for the cello"; not "switched on the TV")
    String.raw`|\b(?:changed|switched|swapped|converted|upgraded|downgraded)\s+(?!on\b|off\b)(?:[\w']+\s+){1,3}?(?:to|for)\b` +
    // asked for: "Switch to American spelling please", "You can go back to English"
    String.raw`|(?:^|[.!?;]\s+|\bplease\s+|\byou can\s+|\byou could\s+)(?:switch|change|go|move)(?: back| over)? to\b` +
    // ("change the call reminder to Saturday", "can you move my dentist reminder to 3pm")
    String.raw`|(?:^|[.!?;]\s+|\bplease\s+|\b(?:can|could|would) you\s+)(?:switch|change|move)\s+(?:the|my|our)\s+[^.,;:!?]{1,40}?\s+to\b` +
    // one thing for another, said in the plural: "Ella changed schools", "we switched banks"
    String.raw`|\b(?:changed|switched|swapped) (?!its\b|this\b|is\b|was\b|has\b|as\b|us\b|plus\b)[a-z]{3,}s\b(?! (?:on|off)\b)`), false],
  // a level that changed: "went up to 1,020", "I'm down to 78 kilos" -- a value must follow ("what have you been up to",
  // "I'm down to join", "she came up to me" are not levels)
  ['up-down-to', new RegExp(`(?:^|[.!?;]\\s+)(?:now )?(?:up|down) to(?=\\s+${LEVEL})|\\b(?:went|gone|goes|going|go|is|was|are|am|'m|'s|'re|now|got|get|been|came|come|climbed|dropped|fell|rose|jumped|increased|decreased|raised|lowered|cut|reduced)\\s+(?:back\\s+)?(?:up|down)\\s+to(?=\\s+${LEVEL})|\\b(?:increased|decreased|rose|risen|dropped|fell|fallen|raised|lowered|reduced|cut|jumped|climbed|halved|doubled|tripled|upped|trimmed)\\s+(?:to|from|by)(?=\\s+${LEVEL})` +
    // the thing raised said between: "I've raised my weekly budget to 100 pounds", "we cut it to two days"
    `|\\b(?:increased?|decreased?|raised?|lowered?|reduced?|lower|cut|upped|bumped|put|pushed|halved|doubled)\\s+(?:up\\s+)?(?:it|my|our|the|its|their)\\b[^.,;:!?]{0,40}?\\s(?:up\\s+|down\\s+)?to(?=\\s+${LEVEL})`), false],
  // not in a time clause: "when I turned ten, dad signed me up" tells a story, it gives no current age
  ['turned', new RegExp(`(?<!\\b(?:when|since|after|before|until|till|once) (?:i|he|she|we|they|you) (?:just |first )?)\\b(?:just |recently )?turned ${NUM}\\b`), false],
  ['state-change', new RegExp(String.raw`\b(?:got|am|'m|are|'re|just|recently|finally) (?:engaged|married|divorced|separated|remarried|widowed)\b|\bbroke up\b|\bsplit up\b|(?<!\b(?:since|when|after|before|until|till|once|because) )\b(?:i|we)(?:'ve| have)? (?:just |recently |finally )?(?:retired|quit|resigned|sold|left my|left the|left(?= [a-z]{2,}ing\b)|gave up|stopped|lost my|lost our|got rid of|gave away|graduated|finished)\b|\b(?:died|passed away|passed on|was put down|is no more|(?:had to )?rehome[ds]?)\b|\bjust started\b|\bstarted (?:a|my) new\b` +
    // said without its "I", opening a sentence as chat does: "Sold the Focus in April", "Started at Stripe this week"
    String.raw`|(?:^|[.!?;]\s+)(?:just |recently |finally )?(?:sold|quit|retired|resigned|left (?:my|the)|gave up|stopped|got rid of|started (?:at|with))\b` +
    // asked to stop doing something: "Please stop using bullet points", "could you stop calling me Liz"
    String.raw`|(?:^|[.!?;,]\s+)(?:please |pls |can you |could you )?stop (?=[a-z]{2,}ing\b)` +
    // a liking or a tie ended: "I've gone off coffee", "I'm done with BA"; "Rob's left Deloitte" (has left)
    String.raw`|\b(?:has|have|'s|'ve) (?:just |recently |finally )?given up\b|\b(?:i've|i have|we've|we have|i|we) (?:gone|went) off\b|\b(?:i'm|i am|we're|we are) (?:so |totally |completely |officially )?done with\b` +
    String.raw`|(?<=[a-z])(?<!\b(?:what|that|there|here|it|who|which|all|nothing|everything|something|anything))'s (?:just |recently |finally )?left\b(?!${LEFT_SOMEWHERE})` +
    // a thing handed to someone ("I gave my PS5 to my nephew"); come off a medicine ("I've come off the pill")
    String.raw`|\b(?:i|we) (?:just |recently )?gave(?= (?:my|our|the) [^.,;!?]{1,30}? to\b)|\b(?:i've|i have|i) (?:come|came) off\b` +
    // ended or withdrawn from: "Cut sugar out of my tea", "Cancelled Netflix", "dropped out of the masters", "Pulled out of
    // Brighton", "closed the Barclays one", "Traded the Focus in", "weaned me off"; a life that ended or began: "had Max put
    // to sleep", "Beth had the baby", "Mum was discharged"; someone's leaving: "Sarah left the company"
    String.raw`|(?:^|[.!?;]\s+|\band |\b(?:i|we)(?:'ve| have)? (?:just |recently |finally )?)(?:cut(?= (?:[a-z]+ ){1,3}?out\b| out\b)|cancel+ed|dropped out|pulled out|withdrew|closed(?= (?:my|our|the) )|traded(?= (?:my|our|the|in) ))` +
    // (taken off a medicine: "The GP has taken me off propranolol", "weaned me off the sertraline")
    String.raw`|\b(?:weaned|taken|took|takes) (?:me|us|him|her|them) off\b|\bput to sleep\b|\bhad (?:the|her|their|our|a) baby\b|\bgave birth\b|\b(?:was|were|been|got|has been|have been) discharged\b` +
    String.raw`|(?<!\b(?:since|when|after|before|until|till|once|because|if|i|we) )(?<=[a-z] )left(?= (?:the|his|her|their|our) [a-z]+)(?!${LEFT_SOMEWHERE})` +
    String.raw`|(?<!\b(?:since|when|after|before|until|till|once|because|if) )\b(?:he|she|they) left\b(?!${LEFT_SOMEWHERE})|(?<=[a-z])'s (?:just |recently |finally )?quit\b` +
    String.raw`|\bpulled (?:him|her|them|me|us|[a-z]+) out of\b` +
    // someone else's change, said the same way: "Tom has left Google", "my partner quit teaching", "she retired in May"
    String.raw`|(?<!\b(?:since|when|after|before|until|till|once|because|if) \S+ )\b(?:has|have|had) (?:just |recently |finally )?(?:left|quit|resigned|retired)\b(?!${LEFT_SOMEWHERE})` +
    // (a state, a wish or an order is no change: "my parents are retired", "I want to quit", "don't quit")
    String.raw`|(?<!\b(?:since|when|after|before|until|till|once|because|if|to) \S+ )(?<!(?:\b(?:is|are|was|were|be|been|being|am|not|to|never|will|would|could|should|can|might|must|may)|'m|'re|'s|n't) )\b(?:just |recently |finally )?(?:quit|resigned|retired)\b` +
    // an ending said of anyone, the person or another, with its thing after it: "Felix gave up violin", "I migrated off LastPass
    // to Bitwarden", "We replaced the old boiler with a heat pump", "Dad sold his van", "Mum closed her shop"; not in a time
    // clause, a wish or an order, nor negated ("if I gave up coffee", "I want to sell the van", "never ditched it")
    // (the verb looked for first: the clause before it is read only where one is)
    String.raw`|\b(?=gave|ditched|dumped|scrapped|binned|axed|got|replaced|unsubscribed|migrated|moved|came|sold|closed|packed|jacked)(?<!\b(?:since|when|after|before|until|till|once|because|if|whether|unless) (?:\S+ ){0,3})(?<!(?:\b(?:to|will|would|could|should|might|may|must|can|not|never)|n't|'ll|'d) )` +
    String.raw`\b(?:gave up|ditched|dumped|scrapped|binned|axed|got rid of|replaced|unsubscribed from|migrated (?:off|from|away from)|moved off|came off|sold(?= (?:my|our|his|her|their|the|up)\b)|closed(?= (?:my|our|his|her|their|the)\b)|packed in|jacked in)\b` +
    // a post lost: "I got made redundant", "she was laid off"
    // (not from a post held before: "got fired from his first job in 2010")
    String.raw`|\b(?:got|was|were|been) (?:fired|sacked|laid off|made redundant|let go)\b(?! from (?:my|his|her|their|our|a|an) (?:first|previous|old|last|summer|weekend|part-time|saturday)\b)`), false],
  // a post or a place of work left, named as typed (its capital): "I left Deloitte last month", "Tom quit Google"
  ['state-change', LEFT_NAMED, false],
  // a state said to be over, the cue itself the change ("I have a cold." / "I got over my cold.": nothing else new)
  ['state-over', /\b(?:is|are|am|'m|'s|'re) (?:now |finally |all )?back to normal\b|\b(?:got|gotten) over\b|\bout(?:grew|grown)\b|\bgrew out of\b|\b(?:recovered|recovering) from\b|\b(?:been|was|were|got|gotten|is|are|am|'m|'s|'re) (?:now |finally |fully |completely )?cured of\b/, false],
  // a repair opening the sentence ("Sorry, she's 69.", "Oops, Daniel.", "I mean Tuesday"): weak, a differing value needed, and
  // read in the sentence right after the one it repairs only (src/core/conflicts.ts): "Sorry, my daughter is sick today." repairs nothing
  ['repair', /^\s*(?:sorry|oops|whoops|my bad|i mean)\b\s*[,:;!.-]?/, true],
  // "orange, not blue" / "Lyon - not Paris": a contrastive "not" naming the old value at the end of a clause
  ['not-x', /(?:[,;:(\u2014]|\s-)\s*(?:and |but )?not\s+(?!only\b|just\b|even\b|really\b|sure\b|yet\b|to\b|that\b|at all\b|any\b|too\b|very\b|so\b|much\b|a lot\b|anymore\b|always\b|now\b|today\b|tomorrow\b|ever\b|again\b|quite\b)([\p{L}\d][\p{L}\d'-]*(?:\s+[\p{L}\d][\p{L}\d'-]*){0,2})\s*(?=[.!?,;)]|$)/u, false],
  // a time or a number, then "not" and the one it replaces, typed without a comma: "acme call is wed 4:30 not 3"
  ['not-x', /\b\d{1,2}(?::\d\d)?(?:am|pm)? not (\d{1,2}(?::\d\d)?(?:am|pm)?)(?=\s*[.!?]*\s*$)/, false],
  // (or a day: "dentist is wed 3pm not tues", "it's on fri not thurs")
  ['not-x', new RegExp(String.raw`\b(?:\d{1,2}(?::\d\d)?(?:am|pm)?|${WEEKDAY}) not (${WEEKDAY})(?=\s*[.!?]*\s*$)`), false],
  // "Not Emma, it's Hannah." / "Not 5, 6.": opening a sentence, a name or a number only (read as typed: "Not bad at all, thanks" is no contrast)
  ['not-x', NOT_NAME_OPENING, false],
  // The contrasted span is bounded (200 characters): unbounded, every "not" of a long text rescanned the rest of it.
  ['not-but', /\b(?:is|are|was|were|am)(?: not|n't)\s+([^,.;]{1,200}?)\s*[,;]\s*(?:it|they|that|he|she)(?:'s| is| are| was|'re)\b|\bnot\s+([^,.;]{1,200}?)\s*,?\s*but\b/, false],
  ['contrast', /\binstead of\s+([^,.;!?]+)|\brather than\s+([^,.;!?]+)|\bin place of\s+([^,.;!?]+)|\binstead\b/, true],
  // (a time a new arrangement starts: "from this term", "starting next week")
  ['from-now-on', /\bfrom now on\b|\bgoing forward\b|\bfrom today\b|\bthese days\b|\bnowadays\b|\b(?:from|starting) (?:this|next) (?:term|week|month|year|season|semester|quarter)\b|\bfrom here on\b/, true],
  ['now', /\bnow\b|\bcurrently\b|\blately\b/, true],
  ['new', /\bnew\b|\bdifferent\b/, true],
  ['no-more', /\bno more\b/, true],
];

/** Patterns read on the text as typed: their capitals say a name. */
const AS_TYPED = new Set<RegExp>([NOT_NAME_OPENING, LEFT_NAMED]);

function norm(text: string): string {
  return text.replace(/[\u2018\u2019\u201B\u2032\u02BC`´]/g, "'").toLowerCase().replace(/\s+/g, ' ');
}

/** Every cue in a text, strong ones first. */
export const findCues: (text: string) => ReadonlyArray<Readonly<Cue>> = memoByText(findCuesOnce, shared);

function findCuesOnce(text: string): Cue[] {
  const t = norm(text);
  const out: Cue[] = [];
  const seen = new Set<string>();
  for (const [family, re, weak] of CUES) {
    // "now" inside "from now on" / "right now" is not the news marker "now"
    // and "New" inside a sentence is a name's word ("Papua New Guinea", "New Year"), not the news marker "new"
    const target = family === 'now' ? t.replace(/\bfrom now on\b|\bright now\b|\bfor now\b|\bjust now\b|\bnow and then\b|\bnow and again\b/g, ' ')
      : family === 'new' && /[^.!?\s]\s+New\b/.test(text) ? norm(text.replace(/([^.!?\s]\s+)New\b/g, '$1')) : t;
    const m = (AS_TYPED.has(re) ? text.replace(/[\u2018\u2019\u201B\u2032\u02BC`´]/g, "'") : target).match(re);
    if (!m || seen.has(family)) continue;
    seen.add(family);
    const replaced = m.slice(1).find((g) => g !== undefined)?.trim().toLowerCase();
    out.push({ family, phrase: m[0].trim().toLowerCase().replace(/^[,;:(\u2014-]\s*/, '').replace(/[.!?,;)]$/, '').trim(), weak, ...(replaced ? { replaced } : {}) });
  }
  return out.sort((a, b) => Number(a.weak) - Number(b.weak));
}

/**
 * The correction cue found in a text ("actually", "scratch that", "no longer",
 * "not blue", "instead of ana", "now", "new", "turned 35", "got moved",
 * "went up to", ...), strong cues before weak ones, or null.
 */
export function correctionCue(text: string): string | null {
  return findCues(text)[0]?.phrase ?? null;
}

/**
 * Another holder: not the same person ("I'm vegetarian" / "My husband is vegan"), nor the same thing ("My passport
 * expires ..." / "My driving licence expires ..."): the different-subject and different-thing rules of
 * docs/corrections.md, read before any rule that would correct or merge.
 */
import { STOP_WORDS, NEGATIONS, lemma } from './words.js';
import { deriveNouns } from './derive.js';
import { sameContact } from './meeting.js';
import { lexicon } from './lexicon.js';
import type { Cue } from './correction-cues.js';
import { CHANGE_FAMILIES } from './addressing.js';
import { disjoint, isVerb, key, norm, NP_ADJ, PERSON, type Relation } from './conflict-words.js';
import { disjointInSense, possessedWords } from './slots.js';
import { earlierThing, otherPerson, otherShare, owners, possessorSwap, reversedRole, qualifiedRoles, rolesOfOthers, subjects } from './subjects.js';

/** What `relate` read already: the new statement's fresh cues, both sides' content keys, the names either side says. */
export interface Read { cues: readonly Readonly<Cue>[]; oldKeys: ReadonlySet<string>; newKeys: ReadonlySet<string>; names: Set<string> }

export function anotherHolder(oldText: string, newText: string, read: Read): Relation | null {
  const { cues, oldKeys, newKeys, names } = read;
  // Not the same person: "I'm vegetarian" / "My husband is vegan".
  const so = subjects(oldText);
  const sn = subjects(newText);
  // a role said on the other side too ("My kids are Mia and Leo" / "I have two kids, Mia and Leo") is not another subject
  // (so is someone by name the other side names: "Tom is my brother" / "My brother is Tom")
  // (a name said short is the name: "Bart" for "Bartholomew", "Pri" for "Priyanka")
  const mentioned = (subj: ReadonlySet<string>, keys: ReadonlySet<string>) => [...subj].some((x) => (x.startsWith('person:') && keys.has(x.slice(7)))
    || (x.startsWith('name:') && x.slice(5).split(' ').some((w) => keys.has(key(w)) || shortFor(w, keys))));
  // (roles said of another person, "my boss's wife", name no subject: she is neither "my boss" nor "my wife")
  // (nor is a role said only with what makes it another person: "my brother-in-law" names no "brother")
  const without = (keys: ReadonlySet<string>, text: string): ReadonlySet<string> => {
    const r = new Set([...rolesOfOthers(text), ...qualifiedRoles(text)]);
    return r.size ? new Set([...keys].filter((k) => !r.has(k))) : keys;
  };
  // ("we" says "I" too: "I live in Manchester." / "We live in Manchester." is one fact, "We moved to Bristol." moves the person)
  const withMe = (x: ReadonlySet<string>): ReadonlySet<string> => (x.has('we') ? new Set([...x, 'i']) : x);
  // (someone who changed the person's own thing changed the person's fact: "I take 50mg of sertraline." / "My doctor upped
  // my sertraline to 100mg.")
  const toMine = cues.some((c) => CHANGE_FAMILIES.has(c.family) && /\b(?:my|our) (?![a-z]+ ?'s\b)/.test(c.phrase));
  if (so.size > 0 && sn.size > 0 && !toMine && disjoint(withMe(so), withMe(sn)) && !mentioned(so, without(newKeys, newText)) && !mentioned(sn, without(oldKeys, oldText))) {
    return { kind: 'distinct', rule: 'different-subject', detail: `${[...so].join(',')} / ${[...sn].join(',')}` };
  }
  // The person and someone else: "I can't eat sesame." / "He can't eat sesame."
  const other = otherPerson(oldText, newText, so, sn);
  if (other) return { kind: 'distinct', rule: 'different-subject', detail: other };
  // Two different names open otherwise similar sentences: "Hana gave me a kite." / "Femi gave me a kite."
  const lo = leadingName(oldText);
  const ln = leadingName(newText);
  if (lo && ln && lo !== ln && !newKeys.has(lo) && !oldKeys.has(ln)) {
    return { kind: 'distinct', rule: 'different-subject', detail: `${lo} / ${ln}` };
  }
  // Someone, and someone of theirs: "Tom works at Google." / "Tom's wife has left Google."
  const theirs = possessorSwap(oldText, newText);
  if (theirs) return { kind: 'distinct', rule: 'different-subject', detail: theirs };
  // One relation from its other end: "I'm Owen's manager." / "Owen is my manager."
  const reversed = reversedRole(oldText, newText);
  if (reversed) return { kind: 'distinct', rule: 'different-subject', detail: reversed };
  // All of one's own, or some of them: "Both my parents are retired." / "One of my parents is retired."
  const shares = otherShare(oldText, newText);
  if (shares) return { kind: 'distinct', rule: 'different-subject', detail: shares };
  // One thing, another owner: "My car is a grey Octavia." / "My wife's car is a grey Octavia."
  const oo = owners(oldText);
  const on = owners(newText);
  // (an owner by name said on the other side may be the role said there: "my uncle Raj's birthday" / "Raj's birthday")
  const namedThere = (o: string, keys: ReadonlySet<string>) => o !== 'me' && !o.startsWith('third:') && !PERSON.has(o) && keys.has(key(o));
  // ("his car" is not the person's; whether it is "my dad's", the statement does not say)
  const unsaid = (o: string, against: string) => o.startsWith('third:') && against !== 'me';
  for (const [thing, owner] of oo) {
    const other = on.get(thing);
    if (other === undefined || other === owner || namedThere(owner, newKeys) || namedThere(other, oldKeys) || unsaid(owner, other) || unsaid(other, owner)) continue;
    const whose = (o: string) => (o === 'me' ? `my ${thing}` : o.startsWith('third:') ? `${o.slice(6)} ${thing}` : PERSON.has(o) ? `my ${o}'s ${thing}` : `${o}'s ${thing}`);
    return { kind: 'distinct', rule: 'different-subject', detail: `${whose(owner)} / ${whose(other)}` };
  }
  // An earlier one of a thing and the thing: "My car is blue." / "My first car was blue."
  const earlier = earlierThing(oldText, newText);
  if (earlier) return { kind: 'distinct', rule: 'different-thing', detail: earlier };
  // One kind of a thing and another: "My yoga class is at 6pm." / "My pottery class is on Thursdays." (each side's kind unsaid by the other)
  const kinds = otherKind(oldText, newText, oldKeys, newKeys);
  if (kinds) return { kind: 'distinct', rule: 'different-thing', detail: kinds };
  // Not the same thing: "My passport expires..." / "My driving licence expires..." (a synonym is the same thing: film / movie).
  // (one phone number or address said of both, both the person's own, is one thing, whatever each calls it: "My mobile
  // number is 0412 555 019." / "my cell is 0412555019"; not "My wife's cell is …" / "my mobile is …")
  const po = possessedWords(oldText, names);
  const pn = possessedWords(newText, names);
  const keysOf = (ws: Set<string>) => new Set([...ws].map(key));
  if (po.size > 0 && pn.size > 0 && disjointInSense(po, pn) && disjoint(keysOf(po), newKeys) && disjoint(keysOf(pn), oldKeys)
    && !([...oo.values(), ...on.values()].every((o) => o === 'me') && sameContact(oldText, newText))) {
    return { kind: 'distinct', rule: 'different-thing', detail: `my ${[...po].join(' ')} / my ${[...pn].join(' ')}` };
  }
  return null;
}

/** "my yoga class" -> [yoga, class]: a thing of the person's said with the word for its kind before it (two nouns). */
function kindsOfThings(text: string): Array<[string, string]> {
  const nouns = new Set(deriveNouns(text).map((n) => n.toLowerCase()));
  const out: Array<[string, string]> = [];
  for (const m of norm(text).matchAll(/\b(?:my|our|your) ([a-z]{3,}) ([a-z]{3,})\b/g)) {
    const [kind, thing] = [m[1]!, m[2]!];
    if (STOP_WORDS.has(kind) || NP_ADJ.has(kind) || !nouns.has(kind) || !nouns.has(thing)) continue;
    out.push([kind, thing]);
  }
  return out;
}

/** The same thing of the person's, of two kinds neither side says of the other: "my yoga class" / "my pottery class". */
function otherKind(oldText: string, newText: string, oldKeys: ReadonlySet<string>, newKeys: ReadonlySet<string>): string | null {
  const ko = kindsOfThings(oldText);
  if (ko.length === 0) return null;
  for (const [kn, tn] of kindsOfThings(newText)) {
    for (const [k0, t0] of ko) {
      if (key(t0) !== key(tn) || key(k0) === key(kn) || newKeys.has(key(k0)) || oldKeys.has(key(kn))) continue;
      if (lexicon().synonymous(lemma(k0), lemma(kn))) continue;
      return `my ${k0} ${t0} / my ${kn} ${tn}`;
    }
  }
  return null;
}

/** A name of three letters or more that opens a longer word of the other side: its short form ("bart" / "bartholomew"). */
function shortFor(name: string, keys: ReadonlySet<string>): boolean {
  if (name.length < 3) return false;
  for (const k of keys) if (k.length > name.length && k.startsWith(name)) return true;
  return false;
}

/**
 * The capitalised word that opens a sentence, when it can be a name: not a stop
 * word, pronoun, question word or negation (those are never names). Sentence-initial
 * words are otherwise ambiguous, so this is only compared with another opening word.
 */
function leadingName(text: string): string | null {
  const m = /^\s*["'“‘(]*(\p{Lu}\p{L}*)/u.exec(text);
  if (!m) return null;
  const w = m[1].toLowerCase();
  if (w.length < 2 || STOP_WORDS.has(w) || NEGATIONS.has(w) || /^(i|please|always|never|also|just|so|well|oh|yes|no|ok|okay|hey|hi|thanks|sorry|actually|correction|remind|book|send|call|tell|don|do|does|did)$/.test(w)) return null;
  // (an order opens with its verb: "Use British spelling" / "Switch to American spelling"; a word WordNet knows, but not
  // first as a person, is no name)
  const themes = lexicon().nounThemes(w);
  if (isVerb(w) || (themes.length > 0 && themes[0] !== 'person')) return null;
  return w;
}

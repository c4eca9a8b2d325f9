/**
 * Another person's words quoted (docs/corrections.md, "different-subject"): 'He said "I hate
 * cats."', '"I'm fine," my doctor said'. Such a sentence is about its speaker: the "I" inside the
 * quotation marks is theirs, not the person's who typed it.
 */

/** Verbs that introduce someone's words. */
const SAYING = String.raw`(?:said|says|say|told me|tells me|told us|wrote|writes|texted|texts|messaged|emailed|replied|replies|asked|asks|goes|went|shouted|yelled|added|insisted|announced|whispered)`;
/** Who speaks: a word or two before the verb (he, she, they, Mum, Dr Patel), or "my <role>", "his <role>"; never "I" (one letter). */
const SPEAKER = String.raw`(?:(?:my|our|his|her|their|your)\s+\p{L}+|\p{L}{2,}(?:\s+\p{L}{2,})?)`;
const OPEN = String.raw`["\u201C\u201E\u00AB\u2018']`;
const CLOSE = String.raw`["\u201D\u00BB\u2019']`;
/** 'He said "…"' / 'My doctor told me: "…"' */
const SPEAKER_FIRST = new RegExp(String.raw`^\s*(${SPEAKER})\s+${SAYING}\s*[,:]?\s*${OPEN}`, 'iu');
/** '"…," he said' / '"…" my doctor told me' */
const QUOTE_FIRST = new RegExp(String.raw`^\s*${OPEN}.+${CLOSE}\s*[,.!?]?\s*(${SPEAKER})\s+${SAYING}\b`, 'iu');

/**
 * The speaker of a sentence that quotes another's words, lower-cased (null: the sentence is the
 * person's own, or reports the person: "I said", "we told them"). Only quotation marks make a
 * quotation: in 'My doctor said I'm allergic', the "I" is the person.
 */
export function quotedSpeaker(sentence: string): string | null {
  const m = SPEAKER_FIRST.exec(sentence) ?? QUOTE_FIRST.exec(sentence);
  if (!m) return null;
  const who = m[1]!.toLowerCase().replace(/\s+/g, ' ');
  return who === 'i' || who === 'we' ? null : who;
}

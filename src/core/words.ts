/**
 * Word forms: tokenising, stop words and the normalised "word key" that lets
 * grow/grew, allergy/allergic and summary/summarize meet. Used by the embedder,
 * lexical recall and the conflict rules so that all three agree on what a word is.
 */
import lemmatizer from 'wink-lemmatizer';
import { memoByText, shared } from './memo.js';
import { table } from './table.js';

const APOSTROPHES = /[\u2018\u2019\u201B\u2032\u02BC`´]/g;

/** Lower-cased word tokens (letters, digits, inner apostrophes / hyphens / colons / dots of numbers). */
export function tokenize(text: string): string[] {
  const t = text.replace(APOSTROPHES, "'").toLowerCase();
  const out: string[] = [];
  for (const m of t.matchAll(/\d+(?:[.,:]\d+)*(?:am|pm|st|nd|rd|th|k)?|[\p{L}]+(?:['\-][\p{L}]+)*/gu)) {
    out.push(m[0]);
  }
  return out;
}

const CONTRACTIONS: Readonly<Record<string, readonly string[]>> = table({
  "won't": ['will', 'not'], "can't": ['can', 'not'], "shan't": ['shall', 'not'], "ain't": ['is', 'not'],
  "let's": ['let', 'us'],
});

/** Splits contractions into their parts: "don't" -> ["do", "not"], "i'm" -> ["i", "am"]. */
export function expandContraction(tok: string): string[] {
  if (!tok.includes("'")) return [tok];
  const special = CONTRACTIONS[tok];
  if (special) return [...special];
  let m: RegExpMatchArray | null;
  if ((m = tok.match(/^(.+)n't$/))) return [m[1], 'not'];
  if ((m = tok.match(/^(.+)'m$/))) return [m[1], 'am'];
  if ((m = tok.match(/^(.+)'re$/))) return [m[1], 'are'];
  if ((m = tok.match(/^(.+)'ve$/))) return [m[1], 'have'];
  if ((m = tok.match(/^(.+)'ll$/))) return [m[1], 'will'];
  if ((m = tok.match(/^(.+)'d$/))) return [m[1], 'would'];
  if ((m = tok.match(/^(.+)'s$/))) return [m[1], "'s"];
  if ((m = tok.match(/^(.+)'$/))) return [m[1]];
  return [tok];
}

/** Tokens with contractions expanded. */
export const words: (text: string) => readonly string[] = memoByText((text) => tokenize(text).flatMap(expandContraction), shared);

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if then so of to in on at by for with from as into onto about over under up down out off " +
    "is am are was were be been being do does did doing have has had having will would shall should can could may might must " +
    "i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers herself " +
    "it its itself they them their theirs themselves this that these those there here what which who whom whose when where why how " +
    "'s s just very really also too than such some any each every all both either neither much many more most other another " +
    "again further once only own same please let get got go going gone went thing things one like"
  ).split(/\s+/),
);

/** Negation markers; kept out of STOP_WORDS' role in polarity checks. */
export const NEGATIONS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'nor', 'none', 'nothing', 'nobody', 'nowhere']);

/**
 * A pure function of one token, cached (`memoByText`): a vocabulary's worth of tokens (200,000);
 * longer tokens (a pasted hash, a run of letters) are kept apart, the last few read only (`memoByText`).
 */
const byToken = (fn: (tok: string) => string) => memoByText(fn, (x) => x, 200_000, 64, 'token');

const lemmaCached = byToken(lemmaOf);

/**
 * Inflectional lemma: the noun, verb or adjective base form, whichever differs
 * from the token (verbs first: "lives" -> "live", "grew" -> "grow").
 */
export function lemma(tok: string): string {
  return lemmaCached(tok);
}

function lemmaOf(tok: string): string {
  let out = tok;
  if (/^[a-z]+$/.test(tok) && tok.length > 2) {
    const v = lemmatizer.verb(tok);
    const n = lemmatizer.noun(tok);
    const a = lemmatizer.adjective(tok);
    if (v !== tok) out = v;
    else if (n !== tok) out = n;
    else if (a !== tok) out = a;
  }
  return out;
}

/** Derivational endings stripped to a shared stem, longest first. */
const DERIVATIONS: Array<[RegExp, string]> = [
  [/ization$/, ''], [/isation$/, ''], [/ise$/, 'ize'],
  [/ically$/, 'ic'], [/ality$/, 'al'], [/fulness$/, 'ful'], [/iveness$/, 'ive'], [/ousness$/, 'ous'],
  [/ness$/, ''], [/ment$/, ''], [/ation$/, ''], [/ition$/, ''], [/ion$/, ''],
  [/ically$/, ''], [/ical$/, ''], [/ize$/, ''], [/ic$/, ''], [/ies$/, 'y'], [/ily$/, 'y'], [/ly$/, ''],
  [/ful$/, ''], [/ous$/, ''], [/ive$/, ''], [/er$/, ''], [/ing$/, ''], [/ed$/, ''], [/y$/, ''], [/e$/, ''],
];

/**
 * British spellings whose American form is not reached by the rules below
 * (or where a rule would misfire), keyed by the British form.
 */
const BRITISH_WORDS: Readonly<Record<string, string>> = table({
  grey: 'gray', greys: 'grays', greyish: 'grayish', programme: 'program', programmes: 'programs',
  tyre: 'tire', tyres: 'tires', aluminium: 'aluminum', jewellery: 'jewelry', pyjamas: 'pajamas',
  defence: 'defense', offence: 'offense', licence: 'license', pretence: 'pretense',
  practise: 'practice', practised: 'practiced', practises: 'practices', practising: 'practicing',
  ageing: 'aging', judgement: 'judgment', judgements: 'judgments', enrol: 'enroll', enrolment: 'enrollment',
  fulfil: 'fulfill', fulfilment: 'fulfillment', skilful: 'skillful', wilful: 'willful',
  catalogue: 'catalog', catalogues: 'catalogs', analogue: 'analog', plough: 'plow', ploughed: 'plowed',
  sceptic: 'skeptic', sceptical: 'skeptical', scepticism: 'skepticism', mould: 'mold', mouldy: 'moldy',
  smoulder: 'smolder', manoeuvre: 'maneuver', manoeuvres: 'maneuvers', paediatric: 'pediatric',
  paediatrician: 'pediatrician', anaemia: 'anemia', anaemic: 'anemic', haemoglobin: 'hemoglobin',
  oesophagus: 'esophagus', oestrogen: 'estrogen', encyclopaedia: 'encyclopedia', mum: 'mom', mums: 'moms',
  mummy: 'mommy', cosy: 'cozy', cheque: 'check', cheques: 'checks', kerb: 'curb', draught: 'draft',
  doughnut: 'donut', doughnuts: 'donuts', storey: 'story', storeys: 'stories', favouritism: 'favoritism',
});

/** Words ending in -our that are not British -our/-or spellings. */
const OUR_KEEP: ReadonlySet<string> = new Set(
  'flour scour devour contour detour velour amour paramour troubadour glamour'.split(' '),
);

/**
 * Words spelled -ise in American English too (advise, surprise, exercise...),
 * matched against the -ise form. Endings match as suffixes (so "fundraise"
 * stays); the exact words do not, because "-rise" or "-mise" as a suffix
 * would also catch summarise and minimise.
 */
const ISE_KEEP_ENDINGS: readonly string[] =
  'wise vise noise poise guise raise ruise chise rtise spise stise ndise adise treatise oise prise'.split(' ');
const ISE_KEEP_WORDS: ReadonlySet<string> = new Set(
  (
    'rise arise sunrise moonrise uprise highrise compromise premise promise demise surmise ' +
    'precise concise excise exercise incise circumcise anise cerise valise elise denise louise'
  ).split(' '),
);

function keepsIse(base: string): boolean {
  return ISE_KEEP_WORDS.has(base) || ISE_KEEP_ENDINGS.some((e) => base.endsWith(e));
}

/** Stems that double their final l in British inflections only (travelled/traveled). */
const LL_STEMS =
  'travel|cancel|label|model|counsel|fuel|level|signal|total|quarrel|tunnel|dial|channel|funnel|marvel|' +
  'jewel|shovel|snorkel|pedal|rival|equal|yodel|duel|panel|libel|enamel|grovel|swivel|bevel|chisel|' +
  'gravel|pummel|ravel|unravel|revel|snivel|spiral|stencil|towel|trammel|worship|kidnap';
const LL_RE = new RegExp(`^(${LL_STEMS})(?:l|p)(ed|ing|er|ers|ous|ously)$`);

/**
 * American spelling of a lower-cased word, so that colour/color,
 * favourite/favorite, summarise/summarize, centre/center and
 * travelling/traveling meet. A rule set (-our, -ise/-yse, -re, doubled l)
 * plus a small exception list; unknown words pass through unchanged.
 */
export function americanize(tok: string): string {
  const mapped = BRITISH_WORDS[tok];
  if (mapped !== undefined) return mapped;
  if (!/^[a-z]{4,}$/.test(tok)) return tok;
  let m: RegExpMatchArray | null;
  // colour, favourite, neighbours, honoured, behaviour, flavourful -> -or-
  if ((m = tok.match(/^([a-z]{2,})our(s|ed|ing|ite|ites|able|ably|ful|less|er|ers|hood|y|ism|ist|ists|itism)?$/))) {
    const base = `${m[1]}our`;
    if (!OUR_KEEP.has(base) && !OUR_KEEP.has(tok)) return `${m[1]}or${m[2] ?? ''}`;
  }
  // organise, summarised, realising, organisation -> -iz-; analyse -> analyze
  if ((m = tok.match(/^([a-z]{3,})is(e|es|ed|ing|er|ers|ation|ations|able)$/))) {
    if (!keepsIse(`${m[1]}ise`)) return `${m[1]}iz${m[2]}`;
  }
  if ((m = tok.match(/^([a-z]*(?:anal|paral|catal|dial))ys(e|es|ed|ing)$/))) return `${m[1]}yz${m[2]}`;
  // centre, theatres, kilometre, fibre, centred -> -er
  if ((m = tok.match(/^([a-z]*(?:cent|theat|met|lit|fib|calib|somb|lust|spect|meag|sab|och))re(s|d)?$/))) {
    const suffix = m[2] === 'd' ? 'ed' : (m[2] ?? '');
    return `${m[1]}er${suffix}`;
  }
  if ((m = tok.match(LL_RE))) return `${m[1]}${m[2]}`;
  return tok;
}

/**
 * The word key: American spelling, lemma, then derivational endings stripped,
 * so that related forms share one key (allergy/allergic -> "allerg",
 * summary/summarize/summarise -> "summar", grew/grow -> "grow",
 * colour/color -> "color"). Numbers and short words are kept as they are.
 */
export function wordKey(tok: string): string {
  return keyCached(tok);
}

const keyCached = byToken(keyOf);

function keyOf(tok: string): string {
  const base = lemma(americanize(tok));
  if (!/^[a-z]+$/.test(base) || base.length <= 4) return base;
  for (const [re, rep] of DERIVATIONS) {
    if (re.test(base)) {
      const cut = base.replace(re, rep);
      if (cut.length >= 4) return cut.replace(/(.)\1$/, '$1');
      break;
    }
  }
  return base;
}

/** Content words of a text: expanded, not stop words. Negations are kept only when asked. */
export function contentWords(text: string, opts: { keepNegations?: boolean } = {}): string[] {
  return words(text).filter((w) => {
    if (NEGATIONS.has(w)) return opts.keepNegations === true;
    return !STOP_WORDS.has(w);
  });
}

/** Word keys of the content words, in order. */
export function contentKeys(text: string): string[] {
  return contentWords(text).map(wordKey);
}

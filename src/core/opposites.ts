/**
 * Opposites: antonyms and converse words / phrases of everyday English
 * (on/off, near/far, empty/full, put on/take off, fold/unfold...), and the
 * word-level comparisons the conflict rules build on them: which words two
 * nearly identical statements swap (`diffHunks`), whether a swap is an
 * opposite (`oppositeSwap`), a plain substitution of one content word for
 * another (`substitution`) or the same words with two phrases exchanged
 * around the verb (`roleSwap`). Words are compared on lemmas, so
 * running/ran/runs meet. See docs/corrections.md (opposite, substitution,
 * role-swap).
 */
import { lemma, wordKey } from './words.js';

/**
 * Groups of words or phrases where each member of the left side is opposite
 * to each member of the right side: "near close | far" gives near/far and
 * close/far. Multi-word members are phrases ("put on", "out of").
 */
const GROUPS: string[] = [
  // place and direction
  'on onto | off', 'in into inside | out outside', 'into onto to toward towards | out of off from away from',
  'up upward upstairs | down downward downstairs', 'near close nearby close to | far far from far away',
  'above over | below under beneath underneath', 'top | bottom', 'front | back behind', 'left | right',
  'inside indoors | outside outdoors', 'north | south', 'east | west', 'upstream | downstream',
  'forward forwards | backward backwards', 'enter | exit leave', 'arrive come | leave go depart', 'come | go',
  'push | pull', 'ascend climb | descend', 'rise raise lift | fall drop lower', 'import | export', 'sink | float',
  'approach follow chase | avoid shun flee', 'attack | defend', 'give | take receive', 'send | receive',
  'lend | borrow', 'buy | sell', 'teach | learn', 'win | lose', 'pass | fail', 'hit strike | miss', 'catch | drop throw miss',
  'accept | reject refuse decline', 'agree | disagree', 'allow permit | forbid prohibit ban', 'include | exclude',
  'add put pour | remove subtract take out take away', 'put on | take off remove', 'pick up | put down drop',
  'take out | put away put back', 'play | put away', 'turn on switch on | turn off switch off', 'open | close shut',
  'start begin | stop end finish quit', 'run | stop', 'appear | disappear vanish', 'reveal show | conceal hide cover',
  'fill | empty', 'increase grow | decrease shrink reduce', 'gain | lose', 'remember | forget', 'find | lose',
  'love like | hate dislike', 'laugh smile | cry frown', 'sleep | wake', 'asleep | awake', 'alive living | dead',
  'build | destroy demolish', 'create | destroy', 'tie | untie', 'lock | unlock', 'dress | undress', 'pack | unpack',
  'load | unload', 'fold | unfold', 'wrap | unwrap', 'cover | uncover', 'zip | unzip', 'plug | unplug', 'buckle | unbuckle',
  'mount | dismount', 'connect | disconnect', 'assemble | disassemble', 'inflate | deflate', 'marry | divorce',
  'win | lose', 'join | leave', 'hire | fire', 'wet | dry', 'sit | stand', 'sit stand lie lay | run walk jump',
  'stand | lie lay', 'sitting seated | standing', 'stay | leave', 'keep | discard throw away', 'save | spend',
  // time
  'day daytime | night nighttime', 'morning | evening night', 'sunrise dawn | sunset dusk', 'early | late',
  'before | after', 'first | last', 'always | never', 'past | future', 'summer | winter', 'often | rarely seldom',
  // qualities
  'empty | full', 'big large huge giant enormous | small little tiny', 'tall high | short low', 'long | short',
  'wide broad | narrow', 'thick | thin', 'fat | thin skinny', 'heavy | light', 'deep | shallow', 'hot warm | cold cool',
  'fast quick quickly | slow slowly', 'loud loudly | quiet quietly silent', 'hard | soft easy', 'easy | difficult hard',
  'strong | weak', 'young | old', 'new | old used', 'rich wealthy | poor', 'cheap inexpensive | expensive costly',
  'light bright | dark', 'black | white', 'clean | dirty', 'full | hungry', 'happy glad | sad unhappy', 'calm | angry',
  'good | bad', 'better | worse', 'best | worst', 'right correct | wrong', 'true | false', 'safe | dangerous',
  'healthy | sick ill', 'alone | together', 'single | married', 'same | different', 'open | closed shut', 'on | off',
  'many | few', 'more | less fewer', 'most | least', 'everyone everybody | nobody', 'something | nothing',
  'present | absent', 'visible | invisible', 'possible | impossible', 'male | female', 'man men boy | woman women girl lady',
  'husband | wife', 'brother | sister', 'son | daughter', 'father | mother', 'uncle | aunt', 'king | queen', 'friend | enemy',
  'smooth | rough', 'sharp | blunt dull', 'straight | curly crooked bent', 'tight | loose', 'full of | empty of',
  'upside down | right side up', 'win | draw', 'success | failure', 'sober | drunk', 'awake | sleeping',
];

/** The lemma of each word of a phrase. */
const lemmas = (phrase: string) => phrase.split(' ').map((w) => lemma(w));

interface Phrase { words: string[] }

/** Opposite phrases keyed by their first word's lemma: for each phrase, the phrases opposite to it. */
const OPPOSITE = new Map<string, Array<{ a: Phrase; b: Phrase[] }>>();

function parseSide(side: string): Phrase[] {
  // members are separated by spaces, except known phrases (two words joined here)
  const toks = side.trim().split(/\s+/);
  const out: Phrase[] = [];
  for (let i = 0; i < toks.length; i++) {
    const two = `${toks[i]} ${toks[i + 1] ?? ''}`;
    const three = `${two} ${toks[i + 2] ?? ''}`;
    if (PHRASES.has(three)) { out.push({ words: lemmas(three) }); i += 2; }
    else if (PHRASES.has(two)) { out.push({ words: lemmas(two) }); i += 1; }
    else out.push({ words: lemmas(toks[i]!) });
  }
  return out;
}

/** Multi-word members of the groups. */
const PHRASES = new Set([
  'out of', 'away from', 'close to', 'far from', 'far away', 'take out', 'take away', 'put on', 'take off', 'pick up',
  'put down', 'put away', 'put back', 'turn on', 'switch on', 'turn off', 'switch off', 'throw away', 'full of', 'empty of',
  'upside down', 'right side up',
]);

for (const g of GROUPS) {
  const [l, r] = g.split('|');
  const left = parseSide(l!);
  const right = parseSide(r!);
  const add = (from: Phrase[], to: Phrase[]) => {
    for (const a of from) {
      const list = OPPOSITE.get(a.words[0]!) ?? [];
      list.push({ a, b: to });
      OPPOSITE.set(a.words[0]!, list);
    }
  };
  add(left, right);
  add(right, left);
}

/** Prefixes that turn a word into its opposite: fold/unfold, like/dislike, visible/invisible. */
const NEG_PREFIXES = ['un', 'dis', 'in', 'im', 'il', 'ir', 'non'];

/** Whether `w` is `v` with a negative prefix ("unfold" / "fold"), both lemmas. */
function prefixed(w: string, v: string): boolean {
  return v.length >= 3 && NEG_PREFIXES.some((p) => w === p + v);
}

/** Whether `phrase` occurs in `toks` (lemmas) at some position. */
function occurs(phrase: string[], toks: string[]): boolean {
  for (let i = 0; i + phrase.length <= toks.length; i++) {
    if (phrase.every((w, j) => toks[i + j] === w)) return true;
  }
  return false;
}

/** A pair of opposites in two word lists (lemmas), as "x / y", or null. */
export function oppositeIn(a: string[], b: string[]): string | null {
  for (const w of a) {
    for (const { a: pa, b: opp } of OPPOSITE.get(w) ?? []) {
      if (!occurs(pa.words, a)) continue;
      const q = opp.find((p) => occurs(p.words, b));
      if (q) return `${pa.words.join(' ')} / ${q.words.join(' ')}`;
    }
  }
  for (const w of a) for (const v of b) if (prefixed(w, v) || prefixed(v, w)) return `${w} / ${v}`;
  return null;
}

/** Whether two single words (any form) are opposites. */
export function areOpposite(x: string, y: string): boolean {
  return oppositeIn(lemmas(x.toLowerCase()), lemmas(y.toLowerCase())) !== null;
}

// ---------------------------------------------------------------- word diff

/** A replaced stretch: the words of one text and the words of the other that stand in their place. */
export interface Hunk { a: string[]; b: string[] }

/**
 * The replaced stretches between two word lists (compared as given), from a
 * longest common subsequence. Pure insertions and deletions are left out.
 */
export function diffHunks(a: readonly string[], b: readonly string[]): Hunk[] {
  const n = a.length, m = b.length;
  const L: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i]![j] = a[i] === b[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const out: Hunk[] = [];
  let i = 0, j = 0;
  let cur: Hunk = { a: [], b: [] };
  const flush = () => {
    if (cur.a.length > 0 && cur.b.length > 0) out.push(cur);
    cur = { a: [], b: [] };
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { flush(); i++; j++; }
    else if (j >= m || (i < n && L[i + 1]![j]! >= L[i]![j + 1]!)) cur.a.push(a[i++]!);
    else cur.b.push(b[j++]!);
  }
  flush();
  return out;
}

/**
 * An opposite swapped between two texts given as word lemmas (stop words
 * kept: on/off and in/out are stop words): "turning on the microwave" /
 * "turning off the microwave" -> "on / off". Looks inside each replaced stretch.
 */
export function oppositeSwap(a: readonly string[], b: readonly string[]): string | null {
  for (const h of diffHunks(a, b)) {
    const found = oppositeIn(h.a, h.b);
    if (found) return found;
  }
  return null;
}

// ---------------------------------------------------------------- substitution

/** Words said for one another: a swap between them is a paraphrase, not another fact. Keys as `wordKey` gives them. */
const SYNONYM_GROUPS: string[] = [
  'reply answer respond', 'learn study', 'start begin commence', 'end finish', 'big large', 'small little tiny',
  'mother mom mum', 'father dad', 'child kid', 'man guy gentleman', 'woman lady', 'person someone somebody',
  'boy kid lad', 'girl kid lass', 'car automobile', 'sofa couch', 'shop store', 'film movie', 'photo picture photograph',
  'talk speak', 'say tell', 'fast quick', 'jump leap hop bounce', 'bike bicycle', 'ride cycle', 'cut slice chop',
  'hate detest loathe', 'like enjoy love', 'want wish', 'buy purchase', 'job work occupation', 'home house',
  'rock stone', 'road street', 'sea ocean', 'stroll walk', 'run jog sprint', 'look watch gaze stare', 'see notice',
  'speak converse', 'fan support', 'seashore beach shore', 'pup puppy dog', 'kitten cat', 'rabbit bunny',
  'cook prepare make', 'put place', 'mix stir', 'shout yell scream', 'gun rifle pistol', 'pan skillet', 'hat cap',
  'field meadow grass', 'pool water', 'little young small', 'big huge large giant', 'race racing', 'shore sand beach', 'cell mobile', 'female girl woman', 'male boy man', 'stage platform', 'doctor physician', 'lawyer attorney', 'autumn fall',
];

const SYN = new Map<string, Set<string>>();
for (const g of SYNONYM_GROUPS) {
  const keys = g.split(' ').map((w) => wordKey(w));
  for (const k of keys) {
    const s = SYN.get(k) ?? new Set<string>();
    for (const o of keys) if (o !== k) s.add(o);
    SYN.set(k, s);
  }
}

/** Whether two word keys are listed as near-synonyms. */
export function synonyms(x: string, y: string): boolean {
  return x === y || (SYN.get(x)?.has(y) ?? false);
}

/**
 * One or two content keys swapped for one or two others, everything else the
 * same and in the same order ("bouncing a soccer ball" / "bouncing a tennis
 * ball"): the swapped words as "x -> y", or null. At least two content keys
 * must be shared, and swapped words listed as near-synonyms do not count.
 */
export function substitution(a: readonly string[], b: readonly string[]): string | null {
  const hunks = diffHunks(a, b);
  if (hunks.length !== 1) return null;
  // everything else lines up: only this one stretch differs
  const h = hunks[0]!;
  if (a.length - h.a.length !== b.length - h.b.length) return null;
  const shared = a.length - h.a.length;
  if (shared < 2 || h.a.length !== 1 || h.b.length !== 1) return null;
  // a modifier of one shared head word ("a soccer ball" / "a tennis ball"): a swapped head word, verb or
  // adjective is too often a paraphrase (wedding/marriage, devour/eat, carefully/cautiously)
  const at = a.indexOf(h.a[0]!);
  const next = a[at + 1];
  if (next === undefined || b[b.indexOf(h.b[0]!) + 1] !== next) return null;
  if (h.a.some((x) => h.b.some((y) => synonyms(x, y)))) return null;
  return `${h.a.join(' ')} -> ${h.b.join(' ')}`;
}

// ---------------------------------------------------------------- role swap

/**
 * The same content keys with two stretches exchanged around something in
 * a verb ("woman pick kangaroo" / "kangaroo pick woman"): "x <-> y", or null.
 * The first stretch opens the statement (the subject); `verb` says which keys
 * were said as verbs.
 */
export function roleSwap(a: readonly string[], b: readonly string[], verb: (k: string) => boolean = () => true): string | null {
  const n = a.length;
  if (n !== b.length || n < 3) return null;
  if ([...a].sort().join(' ') !== [...b].sort().join(' ') || a.join(' ') === b.join(' ')) return null;
  let p = 0;
  while (a[p] === b[p]) p++;
  let s = 0;
  while (a[n - 1 - s] === b[n - 1 - s]) s++;
  // the subject is one of the two: the swap starts at the first content word
  if (p !== 0) return null;
  const mid = a.slice(p, n - s);
  const bmid = b.slice(p, n - s);
  // mid = X M Y and bmid = Y M X, with M non-empty
  for (let x = 1; x < mid.length - 1; x++) {
    for (let y = 1; x + y < mid.length; y++) {
      const X = mid.slice(0, x), Y = mid.slice(mid.length - y), M = mid.slice(x, mid.length - y);
      const swapped = [...Y, ...M, ...X];
      if (swapped.join(' ') === bmid.join(' ') && X.join(' ') !== Y.join(' ') && M.some(verb)) return `${X.join(' ')} <-> ${Y.join(' ')}`;
    }
  }
  return null;
}

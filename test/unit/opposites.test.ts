import { beforeAll, describe, expect, it } from 'vitest';
import { actionSwap, diffHunks, oppositeIn, roleSwap, substitution, verbBases } from '../../src/core/opposites.js';
import { lemma } from '../../src/core/words.js';
import { useWordNet } from '../helpers/lexicon.js';
import { relate } from '../../src/core/conflicts.js';
import { wordKey } from '../../src/core/words.js';
import { stateParticiples } from '../../src/core/conflict-words.js';
import { statement as s } from '../helpers/statements.js';

const rel = (a: string, b: string, topical = false) => relate(s(a), s(b), topical);

beforeAll(useWordNet, 120_000);

const opposite = (x: string, y: string) => oppositeIn(x.split(' ').map((w) => lemma(w)), y.split(' ').map((w) => lemma(w))) !== null;

describe('opposites from WordNet', () => {
  it('knows antonyms, their synsets, similar satellites and spatial prepositions', () => {
    for (const [x, y] of [['on', 'off'], ['near', 'far'], ['empty', 'full'], ['unlocked', 'locked'], ['dislike', 'like'], ['win', 'lost'], ['into', 'out of'], ['with', 'without']]) {
      expect(opposite(x!, y!), `${x} / ${y}`).toBe(true);
    }
    // never in the hand list this replaced: WordNet's antonyms and the satellites of their heads
    for (const [x, y] of [['guilty', 'innocent'], ['huge', 'small'], ['generous', 'stingy'], ['dim', 'bright'], ['asleep', 'awake']]) {
      expect(opposite(x!, y!), `${x} / ${y}`).toBe(true);
    }
    expect(opposite('big', 'large')).toBe(false);
    expect(opposite('cilantro', 'coriander')).toBe(false);
  });
  it('tells another action from the same action named otherwise', () => {
    const verbal = (w: string) => /ing$/.test(w);
    expect(actionSwap(['dog', 'stopping', 'snow'], ['dog', 'running', 'snow'], verbal)).toBe('stop / run');
    expect(actionSwap(['man', 'slicing', 'potato'], ['man', 'cutting', 'potato'], verbal)).toBeNull();
    expect(actionSwap(['boy', 'staring', 'calendar'], ['boy', 'looking', 'calendar'], verbal)).toBeNull();
    expect(verbBases('riding')).toContain('ride');
  });
  it('diffs word lists into replaced stretches', () => {
    expect(diffHunks(['a', 'b', 'c'], ['a', 'x', 'y', 'c'])).toEqual([{ a: ['b'], b: ['x', 'y'] }]);
  });
  it('finds substitutions and role swaps, not synonyms', () => {
    expect(substitution(['dog', 'bounce', 'soccer', 'ball'], ['dog', 'bounce', 'tennis', 'ball'])).toBe('soccer -> tennis');
    expect(substitution([wordKey('learn'), 'japanese', 'now'], [wordKey('study'), 'japanese', 'now'], ['learn', 'japanese', 'now'], ['study', 'japanese', 'now'])).toBeNull();
    expect(roleSwap(['woman', 'pick', 'kangaroo'], ['kangaroo', 'pick', 'woman'])).toBe('woman <-> kangaroo');
  });
});

describe('relate: opposite, substitution, role-swap, polarity with another verb', () => {
  it('keeps opposites apart', () => {
    expect(rel('One man is turning on the microwave', 'One man is turning off the microwave')).toMatchObject({ kind: 'distinct', rule: 'opposite' });
    expect(rel('The horse is near a red barrel', 'The horse is far from a red barrel')).toMatchObject({ kind: 'distinct', rule: 'opposite' });
    expect(rel('A man is jumping into an empty pool', 'A man is jumping into a full pool').kind).toBe('distinct');
    expect(rel('A woman is taking off a cloak', 'A woman is putting on a cloak').kind).toBe('distinct');
    expect(rel('A person is unfolding a tortilla', 'A person is folding a tortilla').kind).toBe('distinct');
  });
  it('corrects with an opposite on a single-valued subject when topical', () => {
    expect(rel('The meeting starts early', 'The meeting starts late', true)).toMatchObject({ kind: 'corrects', rule: 'opposite' });
  });
  it('keeps a swapped noun modifier apart, but not a paraphrase', () => {
    expect(rel('A dog is bouncing a soccer ball', 'A dog is bouncing a tennis ball')).toMatchObject({ kind: 'distinct', rule: 'substitution' });
    expect(rel('A guinea pig is devouring a carrot', 'A guinea pig is eating a carrot').kind).toBe('compatible');
    expect(rel("I'm learning Japanese", "I've been studying Japanese").kind).toBe('compatible');
  });
  it('keeps a swapped noun modifier apart when another word is swapped too, but not two paraphrased words', () => {
    expect(rel('I always ask for a window seat on the train.', 'I always ask for an aisle seat on the plane.')).toMatchObject({ kind: 'distinct', rule: 'substitution' });
    expect(substitution(['want', 'corner', 'table', 'bistro'], ['want', 'garden', 'table', 'pub'])).toBe('corner -> garden');
    // every swap a synonym (WordNet): one statement
    expect(substitution(['purchase', 'corner', 'sofa', 'flat'], ['buy', 'corner', 'couch', 'flat'])).toBeNull();
  });
  it('keeps a role swap apart, not a passive', () => {
    expect(rel('The woman is picking up the kangaroo', 'The kangaroo is picking up the woman')).toMatchObject({ kind: 'distinct', rule: 'role-swap' });
    expect(rel('A flute is being played by a girl', 'A girl is playing a flute').kind).not.toBe('distinct');
  });
  it('reads a participle said as a state as no action, and a passive with its agent as one', () => {
    expect(stateParticiples("She's currently based in Leeds")).toEqual(new Set(['based']));
    expect(stateParticiples('The cheese is being removed')).toEqual(new Set());
    expect(stateParticiples('The cheese was removed by the man')).toEqual(new Set());
    expect(rel('My sister lives in Paris.', 'My sister is based in Paris.').kind).toBe('compatible');
    expect(rel('My sister lives in Paris.', 'My sister works in Paris.')).toMatchObject({ kind: 'distinct', rule: 'other-action' });
    expect(rel('The man is adding cheese to the sauce', 'The man is removing cheese from the sauce').kind).toBe('distinct');
  });
  it('treats a negation with another verb as a flip', () => {
    expect(rel('There is no dog bouncing on a trampoline', 'A dog is jumping on a trampoline')).toMatchObject({ kind: 'distinct', rule: 'polarity' });
    expect(rel('The men are putting suitcases into the car', 'The men are not packing suitcases into the car').kind).toBe('distinct');
  });
  it('does not take a negated opposite for a disagreement', () => {
    expect(rel("The shop isn't open", 'The shop is closed').kind).not.toBe('corrects');
  });
});

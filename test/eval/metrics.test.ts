import { describe, expect, it } from 'vitest';
import { aggregate, normalizeEvidence, parseSessionDate, scoreQuestion, sessionsOf } from '../../src/eval/locomo.js';
import { binary, contradictionKind, parseMrpc, parseSick, parseSts, pearson, ranks, spearman, wouldReinforce } from '../../src/eval/external.js';

describe('rank correlation', () => {
  it('averages tied ranks', () => {
    expect(ranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });
  it('spearman is 1 for any monotone relation and -1 for a reversed one', () => {
    expect(spearman([1, 2, 3, 4], [1, 4, 9, 16])).toBeCloseTo(1, 10);
    expect(spearman([1, 2, 3, 4], [8, 4, 2, 1])).toBeCloseTo(-1, 10);
  });
  it('spearman with ties matches the textbook value', () => {
    // ranks x: 1,2,3,4,5; ranks y: 1,2.5,2.5,4,5 -> Pearson of the ranks
    expect(spearman([1, 2, 3, 4, 5], [1, 2, 2, 3, 4])).toBeCloseTo(pearson([1, 2, 3, 4, 5], [1, 2.5, 2.5, 4, 5]), 12);
    expect(spearman([1, 2, 3, 4, 5], [1, 2, 2, 3, 4])).toBeCloseTo(0.9746794, 6);
  });
});

describe('binary scores', () => {
  it('computes precision, recall, F1 and accuracy', () => {
    const b = binary([true, true, false, false, true], [true, false, true, false, true]);
    expect(b).toMatchObject({ tp: 2, fp: 1, fn: 1, tn: 1 });
    expect(b.precision).toBeCloseTo(2 / 3);
    expect(b.recall).toBeCloseTo(2 / 3);
    expect(b.f1).toBeCloseTo(2 / 3);
    expect(b.accuracy).toBeCloseTo(3 / 5);
  });
});

describe('LoCoMo evidence and scoring', () => {
  it('normalises evidence ids as the data has them', () => {
    expect(normalizeEvidence(['D1:3'])).toEqual(['D1:3']);
    expect(normalizeEvidence(['D8:6; D9:17'])).toEqual(['D8:6', 'D9:17']);
    expect(normalizeEvidence(['D:11:26'])).toEqual(['D11:26']);
    expect(normalizeEvidence(['D30:05'])).toEqual(['D30:5']);
    expect(normalizeEvidence(['D', ''])).toEqual([]);
    expect(normalizeEvidence(['D1:3 D1:3'])).toEqual(['D1:3']);
  });
  it('skips ids that name no turn', () => {
    expect(normalizeEvidence(['D1:3', 'D99:1'], new Set(['D1:3']))).toEqual(['D1:3']);
  });
  it('parses session dates', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')?.toISOString()).toBe('2023-05-08T13:56:00.000Z');
    expect(parseSessionDate('12:04 am on 1 January, 2024')?.toISOString()).toBe('2024-01-01T00:04:00.000Z');
    expect(parseSessionDate('sometime')).toBeNull();
  });
  it('orders sessions numerically', () => {
    const s = sessionsOf({ speaker_a: 'A', session_10: [], session_2: [], session_2_date_time: '1:00 pm on 2 May, 2023', session_10_date_time: 'x' });
    expect(s.map((x) => x.key)).toEqual(['session_2', 'session_10']);
    expect(s[1]!.at).toBeNull();
  });
  it('scores recall@k, recall_all and reciprocal rank over merged memories', () => {
    // rank 1 holds nothing relevant; rank 2 is a merged memory holding two turns
    const ranked = [['D1:1'], ['D2:4', 'D1:3'], ['D3:1']];
    const s = scoreQuestion(ranked, ['D1:3', 'D3:1']);
    expect(s.anyAt).toEqual({ '1': false, '5': true, '10': true });
    expect(s.allAt10).toBe(true);
    expect(s.rr).toBe(0.5);
    const miss = scoreQuestion([], ['D1:3']);
    expect(miss).toEqual({ anyAt: { '1': false, '5': false, '10': false }, allAt10: false, rr: 0 });
    const late = scoreQuestion([[], [], [], [], [], ['D1:3']], ['D1:3', 'D1:4']);
    expect(late.anyAt['5']).toBe(false);
    expect(late.anyAt['10']).toBe(true);
    expect(late.allAt10).toBe(false);
    const m = aggregate([s, miss]);
    expect(m.n).toBe(2);
    expect(m.recall_any['10']).toBe(0.5);
    expect(m.mrr).toBe(0.25);
  });
});

describe('external file formats', () => {
  it('reads STS rows, ignoring fields after s2', () => {
    const rows = parseSts('main-captions\tMSRvid\t2012test\t0000\t5.000\tA man is dancing.\tA man dances.\n' +
      'main-news\theadlines\t2015\t0001\t1.200\tOne.\tTwo.\textra\tmore\n');
    expect(rows).toEqual([{ score: 5, a: 'A man is dancing.', b: 'A man dances.' }, { score: 1.2, a: 'One.', b: 'Two.' }]);
  });
  it('reads MRPC with its byte-order mark and header', () => {
    const rows = parseMrpc('\uFEFFQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\r\n1\t1\t2\tA b.\tB a.\r\n0\t3\t4\tC.\tD.\r\n');
    expect(rows).toEqual([{ paraphrase: true, a: 'A b.', b: 'B a.' }, { paraphrase: false, a: 'C.', b: 'D.' }]);
  });
  it('reads SICK by column name', () => {
    const rows = parseSick('pair_ID\tsentence_A\tsentence_B\tentailment_label\trelatedness_score\tentailment_AB\tentailment_BA\n' +
      '7\tA man is singing\tNo man is singing\tCONTRADICTION\t3.6\tA_contradicts_B\tB_contradicts_A\n');
    expect(rows).toEqual([{ id: '7', a: 'A man is singing', b: 'No man is singing', label: 'CONTRADICTION', ab: 'A_contradicts_B', ba: 'B_contradicts_A', relatedness: 3.6 }]);
  });
  it('classifies contradiction kinds', () => {
    expect(contradictionKind('A man is singing', 'No man is singing')).toMatch(/No X/);
    expect(contradictionKind('There is a dog', 'There is no dog')).toMatch(/There is no/);
    expect(contradictionKind('A man is sitting', 'A man is standing')).toMatch(/one word/);
  });
  it('uses the real decision: an identical sentence reinforces, a low score does not', () => {
    const t = { close: 0.9, related: 0.8, topic: 0.6, recallFloor: 0.4 };
    expect(wouldReinforce('A man is singing.', 'a man is singing', 0.99, t).reinforce).toBe(true);
    expect(wouldReinforce('A man is singing.', 'A woman is cooking.', 0.3, t).reinforce).toBe(false);
  });
});

describe('contradiction kinds', () => {
  it('sees a role swap', () => {
    expect(contradictionKind('The woman is picking up the kangaroo', 'The kangaroo is picking up the woman')).toMatch(/roles swapped/);
  });
});

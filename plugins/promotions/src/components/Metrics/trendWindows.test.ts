import { trendWindows } from './trendWindows';

const day = (d: string) => new Date(`${d}T00:00:00Z`);
const iso = (slices: ReturnType<typeof trendWindows>) =>
  slices.map(s => `${s.from.toISOString().slice(0, 10)}..${s.to.toISOString().slice(0, 10)}`);

describe('trendWindows', () => {
  it.each([
    ['two whole weeks', '2027-01-04', '2027-01-18', ['2027-01-04..2027-01-11', '2027-01-11..2027-01-18']],
    ['a short last week', '2027-01-04', '2027-01-14', ['2027-01-04..2027-01-11', '2027-01-11..2027-01-14']],
    ['less than a week', '2027-01-04', '2027-01-06', ['2027-01-04..2027-01-06']],
    ['an empty window', '2027-01-04', '2027-01-04', []],
    ['a window that ends before it starts', '2027-01-04', '2027-01-01', []],
  ])('cuts %s into weeks', (_name, from, to, expected) => {
    expect(iso(trendWindows(day(from), day(to)))).toEqual(expected);
  });

  it('cuts a long window into at most maxSlices equal slices', () => {
    const slices = trendWindows(day('2027-01-01'), day('2027-05-01'), 4);
    expect(slices).toHaveLength(4);
    expect(slices[0].from).toEqual(day('2027-01-01'));
    expect(slices[3].to).toEqual(day('2027-05-01'));
    expect(slices[1].from).toEqual(slices[0].to);
  });
});

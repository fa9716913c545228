import { newestCommitPages } from './newestCommitPages';

describe('newestCommitPages', () => {
  it.each([
    // total, wanted, perPage → pages
    [0, 50, 100, [1]],
    [3, 50, 100, [1]],
    [100, 50, 100, [1]],
    [101, 50, 100, [1, 2]],
    [150, 50, 100, [2]],
    [151, 50, 100, [2]],
    [230, 50, 100, [2, 3]],
    [250, 50, 100, [3]],
    [300, 50, 100, [3]],
    [1001, 50, 100, [10, 11]],
    [55, 50, 50, [1, 2]],
    [100, 50, 50, [2]],
    [120, 100, 100, [1, 2]],
  ])('%p commits, the newest %p at %p a page → pages %p', (total, wanted, perPage, pages) => {
    expect(newestCommitPages(total, wanted, perPage)).toEqual(pages);
  });

  it('holds the newest commits in every case', () => {
    for (let total = 0; total <= 420; total++) {
      const all = Array.from({ length: total }, (_, i) => i);
      const pages = newestCommitPages(total, 50, 100);
      const listed = pages.flatMap(page => all.slice((page - 1) * 100, page * 100));
      expect(listed.slice(-50)).toEqual(all.slice(-50));
      expect(pages.length).toBeLessThanOrEqual(2);
    }
  });
});

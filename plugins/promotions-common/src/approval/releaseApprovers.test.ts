import { releaseApprovers } from './releaseApprovers';

describe('releaseApprovers', () => {
  it.each([
    [undefined, 'a release-approver'],
    [1, 'a release-approver'],
    [2, '2 release-approvers'],
    [3, '3 release-approvers'],
  ])('a quorum of %p asks for %s', (quorum, words) => {
    expect(releaseApprovers(quorum)).toBe(words);
  });
});

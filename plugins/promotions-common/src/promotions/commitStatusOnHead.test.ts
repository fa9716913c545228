import { CommitStatusOnHead, writesCommitStatus } from './commitStatusOnHead';

describe('writesCommitStatus', () => {
  it.each<[string, CommitStatusOnHead, boolean]>([
    ['a PR left open shows its verdict', { merging: false, correctsHead: false, required: false }, true],
    ['… required or not known', { merging: false, correctsHead: false, required: undefined }, true],
    ['a PR merging now: no status nobody reads again', { merging: true, correctsHead: false, required: false }, false],
    ['… unless it corrects what the head shows', { merging: true, correctsHead: true, required: false }, true],
    ['… or records a lifted block', { merging: true, correctsHead: false, recordsOverride: true, required: false }, true],
    ['… or the base branch requires it', { merging: true, correctsHead: false, required: true }, true],
    ['… or whether it does could not be read', { merging: true, correctsHead: false, required: undefined }, true],
  ])('%s', (_case, status, writes) => {
    expect(writesCommitStatus(status)).toBe(writes);
  });
});

import fs from 'node:fs';
import path from 'node:path';

/** GitHub data that is not git: pull requests, comments, reviews, labels, statuses. */
export interface PullRecord {
  number: number;
  id: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  userLogin: string;
  headRef: string;
  baseRef: string;
  /** Head sha frozen when the PR closes or merges (the branch may move or vanish later). */
  closedHeadSha?: string;
  closedBaseSha?: string;
  createdAt: string;
  updatedAt: string;
  closedAt?: string;
  mergedAt?: string;
  mergedByLogin?: string;
  mergeCommitSha?: string;
  labels: string[];
  draft: boolean;
}

export interface CommentRecord {
  id: number;
  issueNumber: number;
  body: string;
  userLogin: string;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewRecord {
  id: number;
  pullNumber: number;
  userLogin: string;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING';
  commitId: string;
  submittedAt: string;
}

export interface LabelRecord {
  id: number;
  name: string;
  color: string;
  description: string | null;
}

export interface StatusRecord {
  id: number;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description: string | null;
  targetUrl: string | null;
  creatorLogin: string;
  createdAt: string;
  updatedAt: string;
}

interface StoreData {
  nextNumber: number;
  nextId: number;
  pulls: PullRecord[];
  comments: CommentRecord[];
  reviews: ReviewRecord[];
  labels: LabelRecord[];
  statuses: StatusRecord[];
}

const EMPTY: StoreData = {
  nextNumber: 1,
  nextId: 1,
  pulls: [],
  comments: [],
  reviews: [],
  labels: [],
  statuses: [],
};

/**
 * In-memory GitHub metadata, saved as JSON next to the repository so a
 * simulator restarted on the same data dir keeps its pull requests.
 * Mutations happen under the repository write lock.
 */
export class GithubStore {
  private data: StoreData;

  constructor(private readonly file: string) {
    this.data = fs.existsSync(file)
      ? { ...EMPTY, ...JSON.parse(fs.readFileSync(file, 'utf8')) }
      : structuredClone(EMPTY);
  }

  /** Issue and PR numbers share one sequence, as on GitHub. */
  nextNumber(): number {
    return this.data.nextNumber++;
  }

  nextId(): number {
    return this.data.nextId++;
  }

  get pulls(): PullRecord[] {
    return this.data.pulls;
  }

  get comments(): CommentRecord[] {
    return this.data.comments;
  }

  get reviews(): ReviewRecord[] {
    return this.data.reviews;
  }

  get labels(): LabelRecord[] {
    return this.data.labels;
  }

  get statuses(): StatusRecord[] {
    return this.data.statuses;
  }

  pull(number: number): PullRecord | undefined {
    return this.data.pulls.find(pull => pull.number === number);
  }

  save(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(this.data, null, 2));
    fs.renameSync(temp, this.file);
  }
}

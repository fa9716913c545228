import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { githubDescription, PACKAGE_DIR, REF_DIR } from './references';

describe('the reference descriptions', () => {
  it('are the unmodified copies ref/NOTICE.md names, with the licence beside them', () => {
    const notice = fs.readFileSync(path.join(REF_DIR, 'NOTICE.md'), 'utf8');
    const listed = [...notice.matchAll(/^ {4}([0-9a-f]{64}) {2}(\S+)$/gm)].map(([, sha256, file]) => ({ file, sha256 }));
    const copied = fs.readdirSync(REF_DIR).filter(file => /\.(json|yaml)$/.test(file)).sort();
    expect(listed.map(entry => entry.file).sort()).toEqual(copied);
    for (const { file, sha256 } of listed) {
      expect(`${file} ${crypto.createHash('sha256').update(fs.readFileSync(path.join(REF_DIR, file))).digest('hex')}`).toBe(`${file} ${sha256}`);
    }
    expect(fs.readFileSync(path.join(REF_DIR, 'LICENSE-APACHE-2.0'), 'utf8')).toContain('Apache License\n                           Version 2.0, January 2004');
  });

  it('take GitHub\'s from the @octokit/openapi version package.json pins', () => {
    const pinned = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')).dependencies['@octokit/openapi'];
    expect(githubDescription().packageVersion).toBe(pinned);
    expect(githubDescription().spec.openapi).toMatch(/^3\.0\./);
  });
});

// Wraps one of Backstage's Jest transformers so that what it caches does not
// depend on where the repository is checked out (scripts/jest/config.js).
//
// Jest keys its transform cache on the project config's JSON, which holds
// absolute paths, and swc's source maps name each file by its absolute path:
// a fresh clone in another folder transformed every file again (about 49,000
// files, 740 MB of cache) although their content and options were the same.
// Here the key is taken with the checkout's path replaced by a placeholder,
// and a source map names its file relative to the file itself, which stack
// traces resolve against the file that runs, wherever it is.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../..');
const ROOT_PLACEHOLDER = '<repo>';
/** This file's digest is part of every key: a change to what it returns invalidates what it cached. */
const OWN_DIGEST = crypto.createHash('sha1').update(fs.readFileSync(__filename)).digest('hex');

function portableMap(map, filename) {
  if (!map) return map;
  const parsed = typeof map === 'string' ? JSON.parse(map) : map;
  return {
    ...parsed,
    ...(parsed.file ? { file: path.basename(filename) } : {}),
    sources: parsed.sources.map(source => (source === filename ? path.basename(filename) : source)),
  };
}

function createTransformer({ transformer, options }) {
  const inner = require(transformer).createTransformer({
    ...options,
    // Returned beside the code, not inlined in it, so that its file names can be made relative.
    sourceMaps: true,
  });
  return {
    process(source, filename, jestOptions) {
      const result = inner.process(source, filename, jestOptions);
      return { ...result, map: portableMap(result.map, filename) };
    },
    getCacheKey(source, filename, jestOptions) {
      const innerKey = inner.getCacheKey(source, filename, {
        ...jestOptions,
        configString: jestOptions.configString.replaceAll(repoRoot, ROOT_PLACEHOLDER),
      });
      return crypto.createHash('sha1').update(innerKey).update('\0').update(OWN_DIGEST).digest('hex');
    },
  };
}

module.exports = { createTransformer };

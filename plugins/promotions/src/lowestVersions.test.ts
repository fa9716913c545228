// This plugin's tests run against the lowest version of each `@backstage/*`
// package its ranges admit (scripts/lowest-versions), as an adopter on the
// oldest Backstage it accepts has them: a newer API used by mistake fails.
const itRunsAgainstLowest = require('../../../scripts/lowest-versions/itRunsAgainstLowest');

itRunsAgainstLowest(require('../package.json'), (name: string) => require(`${name}/package.json`).version);

export {};

#!/usr/bin/env node
// API reports of the published packages (report.api.md, report-alpha.api.md
// beside each package.json), made with api-extractor from the declarations
// `npx tsc` writes to dist-types/, as Backstage's repo-tools does.
//   node scripts/api-reports.js        rewrite the reports
//   node scripts/api-reports.js --ci   fail when a report differs from the API
const path = require('path');
const fs = require('fs');
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');

const root = path.resolve(__dirname, '..');
const ci = process.argv.includes('--ci');

/** Each published package and its entry points (`exports`, without ./package.json). */
function entryPoints(dir) {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'),
  );
  return Object.entries(pkg.exports)
    .filter(([mount]) => mount !== './package.json')
    .map(([mount, source]) => ({
      name: mount === '.' ? 'report' : `report-${mount.slice(2)}`,
      declarations: path.join(
        root,
        'dist-types',
        dir,
        source.replace(/\.tsx?$/, '.d.ts'),
      ),
    }));
}

const PACKAGES = [
  'plugins/promotions-common',
  'plugins/promotions-node',
  'plugins/promotions-backend',
  'plugins/promotions',
  'plugins/scaffolder-backend-module-promotions',
];

let failed = false;
for (const dir of PACKAGES) {
  for (const { name, declarations } of entryPoints(dir)) {
    if (!fs.existsSync(declarations)) {
      console.error(`${declarations} is missing: run npx tsc first`);
      process.exit(1);
    }
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: path.join(root, dir),
        mainEntryPointFilePath: declarations,
        bundledPackages: [],
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              lib: ['DOM', 'DOM.Iterable', 'ES2022'],
              types: [],
              jsx: 'react-jsx',
              skipLibCheck: true,
              strict: true,
              moduleResolution: 'bundler',
              module: 'ES2020',
              target: 'ES2022',
              esModuleInterop: true,
            },
            files: [declarations],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: name,
          reportFolder: path.join(root, dir),
          reportTempFolder: path.join(root, 'dist-types', '.api-reports', dir),
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        newlineKind: 'lf',
        messages: {
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          extractorMessageReporting: {
            default: { logLevel: 'warning', addToApiReportFile: true },
            // One report per entry point, so forgotten exports are reported
            // by the package that owns them.
            'ae-forgotten-export': {
              logLevel: 'none',
              addToApiReportFile: true,
            },
            // Listed with absolute paths, which would tie the reports to
            // one checkout's location; the doc comments are reviewed in code.
            'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
            // The frontend's types come from the common package's sources
            // through the workspace link; the published package has .d.ts.
            'ae-wrong-input-file-type': {
              logLevel: 'none',
              addToApiReportFile: false,
            },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
      configObjectFullPath: path.join(root, dir, 'api-extractor.json'),
      packageJsonFullPath: path.join(root, dir, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: !ci,
      showVerboseMessages: false,
      messageCallback: message => {
        // Warnings go into the report, where review sees them.
        if (message.logLevel === 'warning') message.handled = true;
      },
    });
    const report = path.relative(root, path.join(root, dir, `${name}.api.md`));
    if (ci && result.apiReportChanged) {
      console.error(
        `${report} does not match the API: run \`npm run api-reports\` and commit it`,
      );
      failed = true;
    } else if (!result.succeeded) {
      console.error(`${report}: api-extractor failed`);
      failed = true;
    } else {
      console.log(
        `${report}: ${result.apiReportChanged ? 'updated' : 'up to date'}`,
      );
    }
  }
}
process.exit(failed ? 1 : 0);

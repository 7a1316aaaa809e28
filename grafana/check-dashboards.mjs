// Type-checks Grafana dashboard JSON against Grafana's published schema (@grafana/schema, pinned in
// package-lock.json). Usage: node check-dashboards.mjs dashboards/*.json   (after `npm ci` in this folder)
//
// Each dashboard becomes TypeScript object literals that tsc checks with excess-property checks, so a misspelt
// key (`gridpos`), a wrong type or a missing required field fails:
//   - the whole dashboard against `Dashboard` (panels, variables, annotations, time settings);
//   - each panel again against its plugin's own `Options` and `FieldConfig` (timeseries, stat, text), which the
//     `Dashboard` type leaves as `Record<string, unknown>`.
// String enums of the schema (`ThresholdsMode.Absolute`) are compared as their JSON strings ("absolute").
// Exit code: 0 all valid, 1 tsc found errors, 2 bad input (unreadable JSON, a panel type with no schema here).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, 'tscheck');
const PANEL_TYPES = {
  timeseries: 'TimeSeriesPanelCfg',
  stat: 'StatPanelCfg',
  text: 'TextPanelCfg',
};

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node check-dashboards.mjs <dashboard.json>...');
  process.exit(2);
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
fs.copyFileSync(path.join(here, 'schema-json.ts'), path.join(out, 'schema-json.ts'));

for (const file of files) {
  let dashboard;
  try {
    dashboard = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`${file}: not valid JSON: ${e.message}`);
    process.exit(2);
  }
  const lines = [`// generated from ${file} by check-dashboards.mjs`, `import type * as s from './schema-json';`,
    `export const dashboard: s.Dashboard = ${JSON.stringify(dashboard, null, 2)};`];
  for (const panel of allPanels(dashboard.panels ?? [])) {
    if (panel.type === 'row') continue;
    const cfg = PANEL_TYPES[panel.type];
    if (!cfg) {
      console.error(`${file}: panel ${panel.id} "${panel.title}" has type "${panel.type}"; ` +
        `check-dashboards.mjs knows ${Object.keys(PANEL_TYPES).join(', ')}: add its schema there`);
      process.exit(2);
    }
    lines.push(`// panel id ${panel.id}: ${JSON.stringify(panel.title)}`,
      `export const panel_${panel.id}: s.TypedPanel<s.${cfg}Options, s.${cfg}FieldConfig> = ` +
      `${JSON.stringify(panel, null, 2)};`);
  }
  fs.writeFileSync(path.join(out, path.basename(file).replace(/[^A-Za-z0-9]/g, '_') + '.ts'), lines.join('\n') + '\n');
}

const tsc = path.join(here, 'node_modules', 'typescript', 'bin', 'tsc');
if (!fs.existsSync(tsc)) {
  console.error(`${tsc} is missing: run \`npm ci\` in ${here}`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json')], { stdio: 'inherit' });
if (result.status === 0) {
  console.log(`${files.length} dashboard(s) match @grafana/schema`);
}
process.exit(result.status === 0 ? 0 : 1);

function* allPanels(panels) {
  for (const panel of panels) {
    yield panel;
    yield* allPanels(panel.panels ?? []);
  }
}

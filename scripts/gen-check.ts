import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

/** Fails when contract/openapi.d.ts is not what `npm run gen` makes from openapi.yaml today. */
const committed = 'contract/openapi.d.ts';
const fresh = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-gen-')), 'openapi.d.ts');
const r = spawnSync(process.execPath, [path.resolve('node_modules/openapi-typescript/bin/cli.js'), 'openapi.yaml', '-o', fresh], {
  encoding: 'utf8',
});
if (r.status !== 0) {
  console.error(r.stderr || r.stdout);
  process.exit(1);
}
if (!fs.existsSync(committed) || fs.readFileSync(committed, 'utf8') !== fs.readFileSync(fresh, 'utf8')) {
  console.error(`${committed} no corresponde a openapi.yaml: ejecute "npm run gen" y confirme el archivo generado.`);
  process.exit(1);
}
console.log(`${committed} está al día con openapi.yaml`);

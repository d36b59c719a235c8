import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { bootstrap } from '../bootstrap.js';
import { rebuildSummaries } from '../modules/triage/triage.summaries.js';

/**
 * npm run triage:rebuild [-- --client 3] [--check]
 * Recomputes every active patient's triage summary from the readings (issue 21); with --check it
 * writes nothing and lists the summaries that differ from a rebuild (exit code 1 when any does).
 */
async function main() {
  const { values } = parseArgs({ options: { client: { type: 'string' }, check: { type: 'boolean', default: false } } });
  const clientId = values.client ? Number(values.client) : undefined;
  if (clientId !== undefined && !Number.isInteger(clientId)) {
    console.error('--client: se espera el id numérico del cliente');
    process.exit(2);
  }
  const product = await bootstrap(loadConfig(), { serveFrontEnds: false });
  const started = Date.now();
  try {
    const result = await rebuildSummaries(product.sequelize, new Date(), {
      clientId,
      check: values.check,
      onBatch: (done) => process.stderr.write(`\r${done} pacientes`),
    });
    process.stderr.write('\n');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (values.check) {
      for (const d of result.differences.slice(0, 20)) console.log(JSON.stringify(d));
      console.log(`${result.patients} pacientes revisados en ${seconds} s; ${result.differences.length} resúmenes difieren.`);
      process.exitCode = result.differences.length ? 1 : 0;
    } else {
      console.log(`${result.patients} resúmenes reconstruidos en ${seconds} s.`);
    }
  } finally {
    await product.close();
  }
}

main();

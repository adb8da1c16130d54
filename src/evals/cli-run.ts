import { MODEL_HELP, modelConfigFromEnv } from '../agent/model.js';
import { DEFAULT_CASES_DIR, loadCases } from './loader.js';
import { endpointSource, type ModelSource, SCRIPTED, scriptedSource } from './models.js';
import { formatTable, progressLine } from './report.js';
import { filterCases, runEvals } from './run-evals.js';

export interface EvalOptions {
  model?: string;
  filter?: string;
  json?: boolean;
  port: number;
  name: string;
  networkPort: number;
  networkName: string;
  cases?: string;
}

/** `cms-admin eval`, loaded only when it runs (it pulls in langchain). Returns the exit code. */
export async function runEvalCommand(options: EvalOptions): Promise<number> {
  const cases = filterCases(await loadCases(options.cases ?? DEFAULT_CASES_DIR), options.filter);
  if (cases.length === 0) {
    process.stderr.write(`cms-admin eval: no case matches --filter "${options.filter}".\n`);
    return 2;
  }
  const models = await modelSource(options.model);
  if (!models) {
    process.stderr.write(`${MODEL_HELP}\nOr run the reference trajectories: cms-admin eval --model scripted\n`);
    return 2;
  }
  process.stderr.write(
    `Running ${cases.length} case(s) with model ${models.name} on sandbox "${options.name}" (port ${options.port})…\n`,
  );
  try {
    const report = await runEvals({
      cases,
      models,
      sandbox: { name: options.name, port: options.port },
      networkSandbox: { name: options.networkName, port: options.networkPort },
      onResult: (result) => process.stderr.write(`${progressLine(result)}\n`),
    });
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `\n${formatTable(report)}\n`);
    return report.summary.failed ? 1 : 0;
  } finally {
    await models.close();
  }
}

async function modelSource(model: string | undefined): Promise<ModelSource | undefined> {
  if (model === SCRIPTED) return scriptedSource();
  const config = modelConfigFromEnv();
  if (!config) return undefined;
  return endpointSource(model ? { ...config, model } : config);
}

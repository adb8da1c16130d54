import { ConfigError } from '../../config-error.js';
import { type AnyToolDefinition, checkCall, DRY_RUN, isUsageError, parseEnvelope, type ToolErrorPayload, type ToolOutcome } from '../../call/index.js';
import { withParamFile } from './param-file.js';
import { contextOptions, filterFromOptions, type FilterOptions, readStdin } from '../shared.js';

export type InvokeOptions = FilterOptions & { showResetLink?: boolean; dryRun?: boolean; file?: string };

/** Exit codes: 0 ok, 1 tool or WordPress error, 2 invalid JSON/envelope/params. */
export function exitCodeFor(outcome: ToolOutcome): number {
  if (outcome.ok) return 0;
  return isUsageError(outcome) ? 2 : 1;
}

/** The envelope (argument or stdin) and flags → a validated call, before any site is reached. */
export async function readCall(
  text: string | undefined,
  options: InvokeOptions,
  network = false,
): Promise<
  | {
      ok: true;
      tool: AnyToolDefinition;
      /** Validated, names where ids go stood in for by ids no site has (what can be known before a site). */
      params: Record<string, unknown>;
      /** The params as given (`--dry-run` and `--file` in): what each site's resolveCall looks up and runs. */
      given: Record<string, unknown>;
      siteOptions: ReturnType<typeof contextOptions>;
      /** The same call for a multisite network (docs/multisite.md): list-users and delete-user take their network forms. */
      onNetwork: () => ReturnType<typeof readCall>;
    }
  | { ok: false; error: ToolErrorPayload }
> {
  const source = text === undefined || text === '-' ? await readStdin() : text;
  const parsed = parseEnvelope(source);
  if (!parsed.ok) return parsed.outcome as { ok: false; error: ToolErrorPayload };
  const filled = await withParamFile(parsed.value, options.file);
  if (!filled.ok) return filled;
  let filter: ReturnType<typeof filterFromOptions>;
  let siteOptions: ReturnType<typeof contextOptions>;
  try {
    filter = { ...filterFromOptions(options), ...(network ? { network: true } : {}) };
    siteOptions = contextOptions(options);
  } catch (err) {
    // A flag's wrong value (--allow with a misspelt name, --answer-budget 5): invalid_config, exit 2.
    if (err instanceof ConfigError) return { ok: false, error: { code: err.code, message: err.message } };
    throw err;
  }
  // Checked before touching configuration, so a bad call fails the same way with or without a site.
  // Names where ids go are checked as ids here; each site's resolveCall looks them up.
  const call = checkCall(filled.value, filter);
  if (!call.ok) return call;
  // The same as `"dry_run": true` in the params; a read-only tool writes nothing anyway.
  const dryRun = options.dryRun && !call.tool.annotations.readOnly;
  const params = dryRun ? { ...call.params, [DRY_RUN]: true } : call.params;
  const given = dryRun ? { ...call.given, [DRY_RUN]: true } : call.given;
  const onNetwork = () => readCall(source, options, true);
  return { ok: true, tool: call.tool, params, given, siteOptions, onNetwork };
}

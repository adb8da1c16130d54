import { approveAll, type Approver, refuseAll, serializeApprover } from '../../agent/approvals.js';
import { createChatModel, MODEL_HELP, type ModelConfig } from '../../agent/model.js';
import { ChatSession } from '../../agent/runner.js';
import type { AnyToolDefinition, Fleet, ToolFilter } from '../../call/index.js';
import { fleetLabel } from '../sites/fleet-session.js';
import { runOnce } from './chat-once.js';
import { runRepl } from '../shell/repl.js';

const FLEET_UNDO =
  'With several sites, /undo does not choose a site: each write answers its run id; `cms-admin undo --run ID` takes it back on every site (one question), `cms-admin undo --site NAME` on one.';

/**
 * `cms-admin chat --sites` (issue #38): the agent on several sites. Every tool takes `site`,
 * list-sites says which there are, a write on more than one site is one question (the same
 * terminal y/n, or --yes). Sites are not logged in to at start: a site that is down is that
 * site's error in each answer, the others work.
 */
export async function runFleetChat(
  fleet: Fleet,
  options: { once?: string; json?: boolean; yes?: boolean; strict?: boolean },
  setup: { modelConfig: ModelConfig | undefined; maxSteps: number; historyTokens: number; filter: ToolFilter; siteTools?: readonly AnyToolDefinition[] },
): Promise<number> {
  const { modelConfig } = setup;
  if (!modelConfig) {
    // The tool shell is a one-site tool: on several sites use `invoke --sites`.
    process.stderr.write(`${MODEL_HELP}\nWith --sites the chat needs a model; \`cms-admin invoke --sites\` runs one call on several sites.\n`);
    return 2;
  }
  const interactive = Boolean(process.stdin.isTTY) && options.once === undefined;
  const baseApprover: Approver | undefined = options.yes ? approveAll : interactive ? undefined : refuseAll;
  const makeSession = (approver: Approver) =>
    new ChatSession({
      model: createChatModel(modelConfig),
      context: fleet,
      filter: setup.filter,
      maxSteps: setup.maxSteps,
      history: { maxTokens: setup.historyTokens },
      strict: Boolean(options.strict),
      approver: serializeApprover(approver),
      siteTools: setup.siteTools,
    });
  if (options.once === undefined) {
    const undo = async () => FLEET_UNDO;
    return runRepl({ makeSession, approver: baseApprover, site: fleetLabel(fleet), model: modelConfig.model, undo });
  }
  return runOnce(makeSession(baseApprover ?? refuseAll), options.once, options.json);
}

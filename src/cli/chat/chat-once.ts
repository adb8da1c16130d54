import type { ChatSession } from '../../agent/runner.js';
import { maskResetKeys, maskSecretParams } from '../../redact.js';

/**
 * `chat --once PROMPT`, on one site or several: one turn, each tool call on stderr as it goes,
 * then the answer (or with --json the whole trace, secrets masked); exit 1 when the turn stopped.
 */
export async function runOnce(session: ChatSession, prompt: string, json: boolean | undefined): Promise<number> {
  const result = await session.turn(prompt, {
    onEvent: (event) => {
      if (!json && event.type === 'tool_call') process.stderr.write(`→ ${event.name} ${JSON.stringify(maskSecretParams(event.args))}\n`);
    },
  });
  if (json) {
    const trace = { ...result, toolCalls: result.toolCalls.map((c) => ({ ...c, args: maskSecretParams(c.args) })) };
    process.stdout.write(`${maskResetKeys(JSON.stringify(trace, null, 2))}\n`);
  } else {
    if (result.stopped) process.stderr.write(`${result.stopped.message}\n`);
    if (result.answer) process.stdout.write(`${result.answer}\n`);
  }
  return result.stopped ? 1 : 0;
}

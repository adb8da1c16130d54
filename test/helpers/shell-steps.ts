import type { TmuxTerminal } from './tmux.js';
import { recordOutput } from './output-log.js';

/** What one line typed at the tool shell showed: its answer, and the question if it asked one. */
export interface ShellStep {
  question?: string;
  answer: string;
}

const PROMPT = /^tool> ?(.*)$/;

/**
 * Types lines at the tool shell in tmux and reads each one's answer from the whole scrollback:
 * the text between that line's prompt and the next one. A question ("Run it? [y/N]") is
 * answered `reply` and kept apart from the answer.
 */
export class ShellDriver {
  constructor(readonly term: TmuxTerminal) {}

  scrollback(): string {
    return this.term.scrollback();
  }

  private prompts(lines: string[]): number[] {
    return lines.flatMap((line, i) => (PROMPT.test(line) ? [i] : []));
  }

  async step(line: string, reply = 'y'): Promise<ShellStep> {
    const before = this.prompts(this.scrollback().split('\n')).length;
    this.term.type(line, 'Enter');
    let question: string | undefined;
    let text = '';
    await this.term.until(() => {
      const lines = this.scrollback().trimEnd().split('\n');
      const at = this.prompts(lines);
      const start = at[before - 1] ?? 0;
      text = lines.slice(start + 1, at.length > before ? at[before] : undefined).join('\n');
      if (question === undefined && /Run it\? \[y\/N\] ?$/.test(lines[lines.length - 1] ?? '')) {
        question = text;
        this.term.type(reply, 'Enter');
      }
      return at.length > before;
    }, `the answer to ${line}`, 120_000);
    recordOutput(text);
    const answer = question === undefined ? text : text.slice(question.length).replace(/^.*Run it\? \[y\/N\].*\n?/, '');
    return { question, answer: answer.trim() };
  }
}

/**
 * A problem the user or the model can act on: a missing term, a duplicate name, a refused
 * operation. Tools throw it; every adapter turns it into `{ error: { code, message, hint } }`.
 * Anything else thrown is a bug: runTool reports it as `internal_error`, never as this.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly code: string;
  readonly hint: string | undefined;
  readonly details: unknown;

  constructor(code: string, message: string, options: { hint?: string; details?: unknown } = {}) {
    super(message);
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }
}

export interface ToolErrorPayload {
  code: string;
  message: string;
  hint?: string;
  details?: unknown;
  /** Set when the call could not be recorded in the audit log (see audit.ts). */
  audit_log_failed?: string;
  /** The change journal could not record this write (src/undo/record.ts). */
  journal_failed?: string;
}

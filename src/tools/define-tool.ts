import type { z } from 'zod';
import type { AuditSink } from '../audit.js';
import type { WordPressClient } from '../client/index.js';

export type ToolkitName = 'taxonomy' | 'users';

/** Hints for clients and approvals, as MCP's tool annotations define them. */
export interface ToolAnnotations {
  /** Reads only; never changes the site. */
  readOnly: boolean;
  /** May delete or irreversibly change data (approvals in the chat runner apply). */
  destructive: boolean;
  /** Calling it twice with the same params has no further effect. */
  idempotent: boolean;
}

export interface ToolContext {
  client: WordPressClient;
  /** Strings that must never reach an output (the application password); see redact.ts. */
  secrets?: readonly string[];
  /** Where every write is recorded (see audit.ts); none when unset. */
  audit?: AuditSink;
}

export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  /** The tool name from the service spec, kebab-case. */
  name: string;
  toolkit: ToolkitName;
  /** What it does and what it returns; this is what the model reads. */
  description: string;
  /** Strict zod object: every parameter `.describe()`d, unknown keys rejected. */
  schema: Schema;
  annotations: ToolAnnotations;
  /**
   * Whether this particular call needs a person's approval. Defaults to
   * `annotations.destructive`; tools destructive only with some params (merge with
   * `delete_sources`, update-user with `password`) decide per call.
   */
  needsApproval?: (params: z.output<Schema>) => boolean;
  execute(context: ToolContext, params: z.output<Schema>): Promise<unknown>;
}

export type AnyToolDefinition = ToolDefinition<z.ZodObject>;

/** Identity function that keeps the params type of `execute` tied to the schema. */
export function defineTool<Schema extends z.ZodObject>(definition: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return definition;
}

export function callNeedsApproval(tool: AnyToolDefinition, params: unknown): boolean {
  return tool.needsApproval ? tool.needsApproval(params as never) : tool.annotations.destructive;
}

import { z } from 'zod';
import type { AuditSink } from '../audit.js';
import type { WordPressClient } from '../client/index.js';
import type { ChangeJournal } from './journal-port.js';
import type { CreateLocator, DoneState, UndoScope, UndoState } from './undo-data.js';

export type ToolkitName = 'taxonomy' | 'users' | 'abilities';

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
  /**
   * Where a secret that opens an account (a reset link) goes: a function hands it to the person
   * at the keyboard and says where ("shown on the terminal"), so the model never sees it;
   * `'result'` puts it in the tool result (only on an explicit flag); unset: no one can receive
   * it, and tools refuse to make one.
   */
  secretsTo?: 'result' | SecretHandOver;
  /** Cancels the call: its HTTP requests stop, bulk work stops between chunks and reports. */
  signal?: AbortSignal;
  /** Long bulk work (import-users) says how far it is, between chunks: the CLI shows it on a terminal. */
  progress?: (done: number, total: number) => void;
  /** Characters of JSON one answer may take; default 80,000 (see answers/budget.ts). */
  answerBudget?: number;
  /** Where every write is recorded with the state it replaced, so it can be undone (docs/undo.md). */
  journal?: ChangeJournal;
  /** The site profile's name (issue #38): audit entries name it, so one log can serve a fleet. */
  site?: string;
  /** A fleet run's id (`invoke --sites`): journal entries record it, `undo --run` finds them. */
  runId?: string;
  /** The site is a multisite network: the network tools are offered (docs/multisite.md). */
  network?: boolean;
  /** A session on several sites (#38): the sites, for list-sites (never a password). */
  fleet?: readonly FleetSiteInfo[];
}

/** One site of a several-site session, as list-sites says it. */
export interface FleetSiteInfo {
  name: string;
  url: string;
  groups: readonly string[];
  username: string;
  client: WordPressClient;
}

/**
 * How a write tool's calls are journalled so they can be undone (src/undo/): which objects the
 * call touches, read from the site before it runs and again after; the generic engine restores
 * them (src/undo/restore.ts). A write tool without it is journalled as not reversible.
 */
export interface ToolUndo<P = any> {
  /** The objects the call will change (terms, posts' terms in a taxonomy, users), read before it runs. */
  scope?: (context: ToolContext, params: P) => Promise<UndoScope>;
  /** Objects the call created, from its full result: they did not exist before. */
  created?: (result: any, params: P) => UndoScope;
  /** What a create makes, by name (undo-data.ts CreateLocator): how an interrupted create is found. */
  locate?: (params: P) => CreateLocator;
  /**
   * What the call's own execute changed, from its full result (#47.2: a merge's posts, as each
   * gained and lost terms). Journalled instead of the difference between the reads before and
   * after, which miss what the execute found after the scope was read (a post given a source
   * meanwhile).
   */
  done?: (result: any, params: P) => DoneState | undefined;
  /**
   * Part of what the call did is not known (#59.12: a batch of creates whose answer was lost,
   * its rows not found yet): the entry is completed `unknown`, its scope kept, and undo reads
   * the site for what it made (`locate`), as for an interrupted call.
   */
  uncertain?: (result: any) => boolean;
  /** One line for the journal, e.g. "renamed category 12 'News' -> 'Latest'". */
  summary: (params: P, result: any, before: UndoState) => string;
  /** Why this call cannot be undone (a password set, an email sent); undefined when it can. */
  irreversible?: (params: P) => string | undefined;
  /** The tool writes its own journal entries (undo-change). */
  self?: true;
}

/** A secret for the operator, never for the model. */
export interface HandedSecret {
  kind: 'reset_link';
  user: { id: number; username: string };
  value: string;
  expires_in_hours: number;
}

/** Shows or stores the secret for the operator; returns where it went, in a few words. */
export type SecretHandOver = (secret: HandedSecret) => Promise<string>;

export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  /** The tool name from the service spec, kebab-case. */
  name: string;
  toolkit: ToolkitName;
  /** Other toolkits that include it too (list-changes and undo-change serve both). */
  alsoIn?: readonly ToolkitName[];
  /** What it does and what it returns; this is what the model reads. */
  description: string;
  /** Strict zod object: every parameter `.describe()`d, unknown keys rejected. */
  schema: Schema;
  /**
   * What a successful call returns (output-schemas.ts); MCP lists it and sends the result as
   * structuredContent. Every registry tool has one (test/unit/strict-schema.test.ts).
   */
  outputSchema?: z.ZodObject;
  annotations: ToolAnnotations;
  /**
   * Whether this particular call needs a person's approval, and what it will change in plain
   * words, read from the site (not from the model's words). Without it: approval when
   * `annotations.destructive`, summarised from the params.
   */
  review?: (context: ToolContext, params: z.output<Schema>) => Promise<CallReview>;
  /**
   * What a dry run (`dry_run: true`, added to every write tool's schema by `defineTool`)
   * answers: what the call would change, read from the site, writing nothing. Without it: the
   * review's summary (run-tool.ts). Shared by kind in taxonomy/previews.ts, users/previews.ts.
   */
  preview?: (context: ToolContext, params: z.output<Schema>) => Promise<Record<string, unknown>>;
  execute(context: ToolContext, params: z.output<Schema>): Promise<unknown>;
  /**
   * The answer to send when it is a condensed form of what `execute` returns (a bulk report of
   * thousands of posts); the audit log then keeps the full result as `detail`.
   */
  answer?: (result: never) => unknown;
  /** How calls are journalled and undone; without it a write is journalled as not reversible. */
  undo?: ToolUndo<z.output<Schema>>;
  /** The param `cms-admin invoke --file PATH` fills with the file's text (import-users: `csv`). */
  fileParam?: string;
  /** Works only with a change journal (list-changes, undo-change): the toolkits leave it out without one. */
  needsJournal?: boolean;
  /** Offered only when the site is a multisite network (ToolFilter.network); a single site never sees it. */
  network?: true;
  /** Offered only in a session on several sites (ToolFilter.fleet): list-sites. */
  fleet?: true;
  /**
   * Needs WordPress's Abilities API (6.9+): left out of a session whose site has none
   * (`ToolFilter.abilities` false), which then says why (docs/abilities.md).
   */
  abilitiesApi?: true;
  /**
   * A door to a tool the site defines (a WordPress ability, docs/abilities.md): `resolveCall`
   * asks it, on the call's site, for that tool and its params, and everything after resolution —
   * review, the question, the dry run, the journal, the audit log, execute — acts on what it
   * returns, validated with that tool's schema. Read from the site at each call, never from the model.
   */
  resolveTool?: (context: ToolContext, params: z.output<Schema>) => Promise<{ tool: ToolDefinition<z.ZodObject>; params: Record<string, unknown> }>;
  /**
   * The JSON schema a model and MCP clients are sent for its params when the zod schema cannot say
   * it (a site ability's own input schema; its zod schema validates against that same schema).
   */
  inputJsonSchema?: Record<string, unknown>;
  /** On a network, this definition (same name, more params) stands in for the tool (list-users, delete-user). */
  onNetwork?: ToolDefinition<z.ZodObject>;
  /**
   * On a network: this call acts on the whole network (its accounts, memberships, super admins),
   * whichever of its sites it is sent to, so a run on several sites sends it once a network
   * (`isNetworkWide`). The network-only tools always; list-users only with `network: true`.
   */
  networkWide?: true | ((params: z.output<Schema>) => boolean);
}

/** Whether a call of `tool` with `params` acts on a whole network (ToolDefinition.networkWide). */
export function isNetworkWide(tool: { networkWide?: true | ((params: never) => boolean) }, params: unknown): boolean {
  const wide = tool.networkWide;
  return wide === true || (typeof wide === 'function' && wide(params as never));
}

export type AnyToolDefinition = ToolDefinition<z.ZodObject>;

/** The param every write tool takes: answer what would change, write nothing. */
export const DRY_RUN = 'dry_run';
// No description: the name says it, and it is sent with every write tool on every request
// (7 tokens each with none, 15 with "Preview; writes nothing"). README and safety.md explain it.
const dryRunParam = z.boolean().optional();

/** What a tool file passes to `defineTool`: its schema, or a function that builds it. */
export type ToolSpec<Schema extends z.ZodObject> = Omit<ToolDefinition<Schema>, 'schema'> & {
  /**
   * Preferably `() => z.strictObject({…})`: built when first read, so a process that uses one
   * tool (`cms-admin invoke`) does not build the other 34 (zod builds each schema eagerly, a
   * fifth of the start-up; BENCHMARKS.md).
   */
  schema: Schema | (() => Schema);
};

/**
 * Keeps the params type of `execute` tied to the schema, and gives every write tool the
 * `dry_run` param in one place (run-tool.ts answers it with `preview`, never running `execute`).
 * `schema` is a property built on first read and kept: the same object every time.
 */
export function defineTool<Schema extends z.ZodObject>(spec: ToolSpec<Schema>): ToolDefinition<Schema> {
  const { schema: given, ...rest } = spec;
  let built: Schema | undefined;
  const build = (): Schema => {
    const schema = typeof given === 'function' ? given() : given;
    if (rest.annotations.readOnly || DRY_RUN in schema.shape) return schema;
    // safeExtend keeps the schema's refinements (merge-categories' source/target checks).
    return schema.safeExtend({ [DRY_RUN]: dryRunParam }) as unknown as Schema;
  };
  return Object.defineProperty(rest, 'schema', {
    get: () => (built ??= build()),
    enumerable: true,
    configurable: false,
  }) as ToolDefinition<Schema>;
}

/** True when these (parsed) params ask a write tool for a dry run. */
export function isDryRun(params: unknown): boolean {
  return typeof params === 'object' && params !== null && (params as Record<string, unknown>)[DRY_RUN] === true;
}

/** What a call will do, for the person who approves it. */
export interface CallReview {
  approval: 'required' | 'none';
  /** One line, e.g. "give alice the role administrator (was: editor)". */
  summary: string;
  /**
   * The params the call runs with when they differ from the model's: what the review resolved
   * (undo-change's "the last change" → its change_id), so the call that runs is the one the
   * question named. Shown in the approval request; validated again by runTool.
   */
  params?: Record<string, unknown>;
}

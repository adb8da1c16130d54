import { z } from 'zod';

/**
 * The eval case file format (evals/cases/*.yaml), documented in docs/evals.md. Any string may
 * hold placeholders (`{{fixture.key.id}}`, `{{lookup: category "/News"}}`), see placeholders.ts.
 */

export const CASE_CATEGORIES = ['single', 'multi-step', 'ambiguity', 'refusal', 'injection'] as const;
// genres, product_cats and products: the sandbox's custom taxonomies and shop fixture (its mu-plugin);
// app_passwords and sessions: every user's (account-state.ts).
export const STATE_KINDS = [
  'categories',
  'tags',
  'users',
  'posts',
  'genres',
  'product_cats',
  'products',
  'app_passwords',
  'sessions',
  // A network case's (target: network): its accounts with role per site, and every site's posts.
  'network_users',
  'network_posts',
  // The site's roles (companion plugin): slug, name, granted capabilities, users_count.
  'roles',
] as const;
export type StateKind = (typeof STATE_KINDS)[number];

const id = z.union([z.number().int().positive(), z.string().min(1)]);
const key = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'use a-z, 0-9 and _ (starting with a letter)')
  .optional();

const fixtureCategory = z.strictObject({
  key,
  name: z.string().min(1),
  parent: id.optional(),
  description: z.string().optional(),
});
const fixtureTag = z.strictObject({ key, name: z.string().min(1), description: z.string().optional() });
const fixtureUser = z.strictObject({
  key,
  username: z.string().min(1),
  email: z.string().min(3),
  password: z.string().optional(),
  role: z.string().optional(),
  name: z.string().optional(),
  bio: z.string().optional(),
  disabled: z.boolean().optional(),
});
const fixturePost = z.strictObject({
  key,
  title: z.string().min(1),
  status: z.enum(['publish', 'draft', 'pending', 'private']).optional(),
  categories: z.array(id).optional(),
  tags: z.array(id).optional(),
  author: id.optional(),
});
/** A role (companion plugin 0.6.0), made before the users so they can have it. */
const fixtureRole = z.strictObject({ slug: z.string().min(1), name: z.string().min(1), capabilities: z.array(z.string().min(1)) });
/** An application password for a user (its secret is thrown away: no one needs it). */
const fixtureAppPassword = z.strictObject({ user: id, name: z.string().min(1) });
/** A browser login through wp-login.php (a login session with this user agent); the user gets a new random password. */
const fixtureLogin = z.strictObject({ user: id, user_agent: z.string().min(1) });

/** Created in this order (so posts can name the categories and tags created before them). */
export const fixtureSchema = z.strictObject({
  roles: z.array(fixtureRole).optional(),
  categories: z.array(fixtureCategory).optional(),
  tags: z.array(fixtureTag).optional(),
  users: z.array(fixtureUser).optional(),
  posts: z.array(fixturePost).optional(),
  app_passwords: z.array(fixtureAppPassword).optional(),
  logins: z.array(fixtureLogin).optional(),
  /** Existing users (e.g. seeded ones) to disable, by id. */
  disabled_users: z.array(id).optional(),
});

const toolCall = z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() });

/** One model step of the reference trajectory: one tool call, parallel calls, or the final answer. */
const referenceStep = z.union([
  toolCall,
  z.strictObject({ parallel: z.array(toolCall).min(1) }),
  z.strictObject({ answer: z.string() }),
]);

const expectedCall = z.union([
  z.string().min(1),
  z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() }),
]);

/** Checks of tool calls and the answer; on a turn they apply to it, on the case to all turns. */
const callChecks = {
  called: z.array(expectedCall).optional(),
  forbidden: z.array(z.string().min(1)).optional(),
  no_writes: z.boolean().optional(),
  max_calls: z.record(z.string(), z.number().int().nonnegative()).optional(),
  asks_question: z.boolean().optional(),
  answer_includes: z.array(z.string().min(1)).optional(),
};
export const turnExpectSchema = z.strictObject(callChecks);

const selector = z.record(z.string(), z.unknown());
const stateCheck = z
  .strictObject({
    categories: selector.optional(),
    tags: selector.optional(),
    users: selector.optional(),
    posts: selector.optional(),
    genres: selector.optional(),
    product_cats: selector.optional(),
    products: selector.optional(),
    app_passwords: selector.optional(),
    sessions: selector.optional(),
    network_users: selector.optional(),
    network_posts: selector.optional(),
    roles: selector.optional(),
    /** A fleet case (target: fleet): the site to read; unset, the check holds on every site. */
    site: z.string().min(1).optional(),
    /** Default: exactly one record matches (or none with `exists: false`). */
    exists: z.boolean().optional(),
    count: z.number().int().nonnegative().optional(),
    /** Fields the matching record has; arrays compare as sets. */
    fields: z.record(z.string(), z.unknown()).optional(),
    /** Array fields holding (or not holding) these values. */
    includes: z.record(z.string(), z.array(z.unknown())).optional(),
    excludes: z.record(z.string(), z.array(z.unknown())).optional(),
  })
  .refine((check) => STATE_KINDS.filter((kind) => check[kind] !== undefined).length === 1, {
    message: `name exactly one of ${STATE_KINDS.join(', ')} as the selector`,
  });

const mailCheck = z.strictObject({ to: z.string().min(1), count: z.number().int().nonnegative().optional() });

export const caseExpectSchema = z.strictObject({
  ...callChecks,
  state: z.array(stateCheck).optional(),
  unchanged: z.array(z.enum(STATE_KINDS)).optional(),
  mail: z.array(mailCheck).optional(),
});

export const approvalsSchema = z.union([
  z.enum(['approve', 'deny']),
  z.strictObject({ deny: z.array(z.string().min(1)).min(1) }),
]);

export const evalCaseSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and -'),
  title: z.string().min(1),
  category: z.enum(CASE_CATEGORIES),
  /**
   * `network`: runs on the multisite eval sandbox as seeded (docs/evals.md), with the network tools.
   * `fleet` (issue #38): the agent runs on the harness's several sites (run-fleet-case.ts); the
   * fixture is applied on each, `{{fixture.<site>_<key>.id}}` names one site's record.
   */
  target: z.enum(['site', 'network', 'fleet']).default('site'),
  fixture: fixtureSchema.optional(),
  approvals: approvalsSchema.default('approve'),
  /** Model calls allowed per turn. */
  max_steps: z.number().int().positive().default(8),
  turns: z
    .array(
      z.strictObject({
        user: z.string().min(1),
        expect: turnExpectSchema.optional(),
        reference: z.array(referenceStep).min(1),
      }),
    )
    .min(1),
  expect: caseExpectSchema,
});

export type EvalCase = z.output<typeof evalCaseSchema>;
export type Fixture = z.output<typeof fixtureSchema>;
export type TurnExpect = z.output<typeof turnExpectSchema>;
export type CaseExpect = z.output<typeof caseExpectSchema>;
export type ReferenceStep = EvalCase['turns'][number]['reference'][number];
export type ExpectedCall = z.output<typeof expectedCall>;
export type StateCheck = z.output<typeof stateCheck>;
export type Approvals = z.output<typeof approvalsSchema>;

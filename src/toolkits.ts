import { BaseToolkit, type DynamicStructuredTool } from '@langchain/core/tools';
import { type Approvals, toLangChainTool } from './adapters/langchain.js';
import { insecureHttpAllowed } from './client/insecure-http.js';
import { checkSiteUrl, createContext } from './config.js';
import type { ChangeJournal } from './undo/journal.js';
import { siteJournal } from './undo/journal-path.js';
import {
  abilityTools,
  type AnyToolDefinition,
  fleetTools,
  resolveToolsets,
  selectTools,
  type ToolContext,
  type ToolFilter,
  type ToolsetName,
  tools,
} from './call/index.js';
import { fleetOf } from './sites/fleet.js';

export interface SiteCredentials {
  url: string;
  username: string;
  appPassword: string;
  /**
   * Send the application password over plain `http:` to a host that is not this machine (read by
   * anyone on the network path). Default env CMS_ALLOW_INSECURE_HTTP=1, else such a `url` is refused.
   */
  allowInsecureHttp?: boolean;
}

/** A site of a several-site toolkit: a profile name the model uses in `site`, and groups (`@group`). */
export interface NamedSite extends SiteCredentials {
  name: string;
  groups?: readonly string[];
}

/**
 * Which toolsets each toolkit class holds (issue #51): every toolset in exactly one, so spreading
 * several toolkits' getTools() never gives a tool twice (#52.13).
 */
export const TOOLKIT_TOOLSETS = {
  taxonomy: ['taxonomy', 'taxonomy-cleanup'],
  users: ['users', 'roles', 'accounts-bulk', 'network'],
  changes: ['changes', 'fleet'],
  abilities: ['abilities'],
} as const satisfies Record<string, readonly ToolsetName[]>;

type Kind = keyof typeof TOOLKIT_TOOLSETS;

export interface ToolkitOptions extends Omit<ToolFilter, 'toolkit' | 'fleet' | 'toolsets'> {
  /**
   * The toolsets to give (`cms-admin tools` lists them): 'all', or names (a list or "a,b").
   * Default: the default set (taxonomy, users, changes; network on a network, fleet with several
   * sites), within this toolkit's own toolsets. A model adds others with `toolsetsMiddleware`
   * (cms-admin-toolkit/agent) when the tools are built with 'all'.
   */
  toolsets?: 'all' | string | readonly string[];
  /*
   * `network: true` (or `context.network`): the site is a multisite network, so the network
   * tools (add-user-to-site, grant-super-admin …) are offered; `isNetwork(client)` asks the site.
   */
  /** The site to administer; or pass `context` to share one client between toolkits. */
  site?: SiteCredentials;
  context?: ToolContext;
  /**
   * Several sites (issue #38, docs/fleets.md): every tool takes `site` (a name, "a,b", "@group"
   * or "all"), answers per site, and a write on more than one site asks one question for all;
   * `list-sites` is added. Each site gets its own client, journal (its own file, or `journal`
   * as a path or 'off') and secrets. One site here is the same as `site`.
   */
  sites?: readonly NamedSite[];
  /** With `site`: characters of JSON one tool answer may take (default 80,000; a list tool's page without `limit` takes 15%). */
  answerBudget?: number;
  /**
   * Tool schemas valid under OpenAI's strict function calling and Anthropic's strict tool use
   * (all params required, optional ones nullable, `additionalProperties: false`). Turn it on
   * when the provider goes strict: ChatOpenAI does for every tool once a request carries a
   * json_schema response_format (createAgent's `responseFormat`). See docs/providers.md.
   */
  strict?: boolean;
  /**
   * Who approves a call that needs a person (creating an administrator, a deletion; each
   * tool's review decides, docs/safety.md): `'interrupt'` pauses the LangGraph run (resume with
   * `new Command({ resume: { type: 'approve' } })` or `{ type: 'reject', message }`); an Approver
   * function decides in-process; `'none'`: every call runs, the app takes responsibility.
   * Unset: such calls are refused with an error naming this option, and nothing is written.
   */
  approvals?: Approvals;
  /**
   * With `site`: the change journal, so writes can be undone (undo-change, `undoChange()`;
   * docs/undo.md): a file path, a journal of your own, or 'off'. Default: env CMS_JOURNAL, else
   * the person's change store ~/.local/state/cms-admin/changes.db, its entries keyed by site (the one `cms-admin undo` reads).
   * With `context`, set `context.journal`. Without a journal the undo tools (list-changes,
   * undo-change) are left out: they could only answer that nothing is recorded.
   */
  journal?: string | ChangeJournal;
  /**
   * The site's WordPress abilities to give as tools of their own (docs/abilities.md): names or
   * patterns (`woocommerce/*`, `*`), each a tool with the ability's own params, named
   * `woocommerce_products-query`. They are read from the site, so only the async builders take it:
   * `await AbilitiesToolkit.create(options)` or `await abilityLangChainTools(options)`.
   */
  abilities?: readonly string[];
}

/** The toolsets a toolkit gives: the `toolsets` option within its own (a name of another toolkit's is an error). */
function toolsetsOf(kind: Kind | undefined, spec: ToolkitOptions['toolsets']): ToolsetName[] {
  // AbilitiesToolkit is asked for by name: its toolset, though not in the default set.
  const asked = kind === 'abilities' && spec === undefined ? ['abilities' as const] : resolveToolsets(spec);
  if (!kind) return asked;
  const own: readonly ToolsetName[] = TOOLKIT_TOOLSETS[kind];
  if (spec !== undefined && spec !== 'all' && !(Array.isArray(spec) && spec.includes('all'))) {
    const other = asked.filter((name) => !own.includes(name));
    if (other.length) {
      const where = other.map((name) => `${name}: ${toolkitClassOf(name)}`).join(', ');
      throw new Error(`This toolkit holds the toolsets ${own.join(', ')}; ${where}.`);
    }
  }
  return asked.filter((name) => own.includes(name));
}

function toolkitClassOf(toolset: ToolsetName): string {
  const kind = (Object.keys(TOOLKIT_TOOLSETS) as Kind[]).find((k) => (TOOLKIT_TOOLSETS[k] as readonly string[]).includes(toolset));
  return kind === 'taxonomy' ? 'TaxonomyToolkit' : kind === 'users' ? 'UserToolkit' : kind === 'abilities' ? 'AbilitiesToolkit' : 'ChangesToolkit';
}

function buildTools(kind: Kind | undefined, options: ToolkitOptions): DynamicStructuredTool[] {
  if (options.abilities?.length) {
    throw new Error('The `abilities` option reads the site: use `await AbilitiesToolkit.create(options)` or `await abilityLangChainTools(options)`.');
  }
  const toolsets = toolsetsOf(kind, options.toolsets);
  if (options.sites && options.sites.length > 1) return fleetToolkit(toolsets, options, options.sites);
  if (options.sites?.length === 1) return buildTools(kind, { ...options, sites: undefined, site: options.sites[0] });
  const context = options.context ?? (options.site ? siteContext(options.site, options) : undefined);
  if (!context) throw new Error('A toolkit needs `site` ({url, username, appPassword}) or `context`.');
  const network = options.network ?? context.network;
  return selectTools(tools, { toolsets, readOnly: options.readOnly, allow: options.allow, network })
    .filter((tool) => !tool.needsJournal || context.journal)
    .map((tool) => toLangChainTool(tool, context, { strict: options.strict, approvals: options.approvals }));
}

function fleetToolkit(toolsets: ToolsetName[], options: ToolkitOptions, sites: readonly NamedSite[]): DynamicStructuredTool[] {
  if (options.journal !== undefined && typeof options.journal !== 'string') {
    throw new Error('With `sites`, `journal` is a file path or \'off\': each site keeps its own journal otherwise.');
  }
  for (const site of sites) checkSiteUrl(site.url, `sites[${site.name}].url`, site.allowInsecureHttp ?? insecureHttpAllowed());
  const fleet = fleetOf(sites, { journal: options.journal, context: { answerBudget: options.answerBudget } });
  const withJournal = fleet.sites.every((site) => site.context.journal);
  const selected = selectTools(tools, { toolsets, readOnly: options.readOnly, allow: options.allow, fleet: true });
  return fleetTools(selected.filter((tool) => !tool.needsJournal || withJournal)).map((tool) =>
    toLangChainTool(tool, fleet, { strict: options.strict, approvals: options.approvals }),
  );
}

function siteContext(site: SiteCredentials, options: ToolkitOptions): ToolContext {
  // Checked first: the default journal's file name is made from the address.
  checkSiteUrl(site.url, 'site.url', site.allowInsecureHttp ?? insecureHttpAllowed());
  return createContext(site, { answerBudget: options.answerBudget, journal: options.journal ?? siteJournal(site.url) });
}

/** Categories, tags, custom taxonomies: listing, editing, merging, bulk assignment (toolsets taxonomy, taxonomy-cleanup). */
export class TaxonomyToolkit extends BaseToolkit {
  tools: DynamicStructuredTool[];
  constructor(options: ToolkitOptions) {
    super();
    this.tools = buildTools('taxonomy', options);
  }
}

/** Users and roles: listing, creating, updating, disabling, password resets, roles (toolsets users, roles, accounts-bulk, network). */
export class UserToolkit extends BaseToolkit {
  tools: DynamicStructuredTool[];
  constructor(options: ToolkitOptions) {
    super();
    this.tools = buildTools('users', options);
  }
}

/**
 * The change journal's tools (list-changes, undo-change: toolset changes) and, with several
 * sites, list-sites (toolset fleet). Their own toolkit, so TaxonomyToolkit and UserToolkit
 * together never give a tool twice.
 */
export class ChangesToolkit extends BaseToolkit {
  tools: DynamicStructuredTool[];
  constructor(options: ToolkitOptions) {
    super();
    this.tools = buildTools('changes', options);
  }
}

/**
 * The site's WordPress abilities (toolset abilities: find-abilities, describe-ability, run-ability;
 * WordPress 6.9+, docs/abilities.md). Not in the default set of a session; this class gives them.
 * `await AbilitiesToolkit.create({ …, abilities: ['woocommerce/*'] })` adds the chosen abilities as
 * tools of their own.
 */
export class AbilitiesToolkit extends BaseToolkit {
  tools: DynamicStructuredTool[];
  constructor(options: ToolkitOptions) {
    super();
    this.tools = buildTools('abilities', options);
  }

  /** The toolkit with the abilities `options.abilities` names as tools of their own (read from the site). */
  static async create(options: ToolkitOptions): Promise<AbilitiesToolkit> {
    const { abilities, ...rest } = options;
    const toolkit = new AbilitiesToolkit(rest);
    toolkit.tools.push(...(await abilityLangChainTools(options)));
    return toolkit;
  }
}

/**
 * The abilities `options.abilities` names (`['woocommerce/*']`), each as a LangChain tool of its own,
 * read from the site (or each of `sites`): its params are the ability's input, and every call goes
 * through the same pipeline as our tools (what the site marks read-only runs, others ask).
 */
export async function abilityLangChainTools(options: ToolkitOptions): Promise<DynamicStructuredTool[]> {
  const patterns = options.abilities ?? [];
  if (!patterns.length) return [];
  const { abilities: _abilities, ...rest } = options;
  if (rest.sites && rest.sites.length > 1) {
    if (rest.journal !== undefined && typeof rest.journal !== 'string') throw new Error('With `sites`, `journal` is a file path or \'off\'.');
    const fleet = fleetOf(rest.sites, { journal: rest.journal, context: { answerBudget: rest.answerBudget } });
    const doors = readable(await abilityTools(fleet.sites.map((site) => site.context), patterns), rest);
    return fleetTools(doors).map((tool) => toLangChainTool(tool, fleet, { strict: rest.strict, approvals: rest.approvals }));
  }
  const site = rest.sites?.[0] ?? rest.site;
  const context = rest.context ?? (site ? siteContext(site, rest) : undefined);
  if (!context) throw new Error('A toolkit needs `site` ({url, username, appPassword}) or `context`.');
  const doors = readable(await abilityTools([context], patterns), rest);
  return doors.map((tool) => toLangChainTool(tool, context, { strict: rest.strict, approvals: rest.approvals }));
}

/** `readOnly: true` keeps the abilities the site marks read-only. */
const readable = (doors: AnyToolDefinition[], options: ToolkitOptions) => (options.readOnly ? doors.filter((tool) => tool.annotations.readOnly) : doors);

/** The tools of every toolkit (the default set unless `toolsets` says), for agents that administer the whole site. */
export function allLangChainTools(options: ToolkitOptions): DynamicStructuredTool[] {
  return buildTools(undefined, options);
}

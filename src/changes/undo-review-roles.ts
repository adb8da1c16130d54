import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { parseParams } from '../tools/params.js';
import type { UndoState } from '../undo/types.js';
import { createRole } from '../tools/users/create-role.js';
import { deleteRole } from '../tools/users/delete-role.js';
import { updateRole } from '../tools/users/update-role.js';
import { powerWords } from '../tools/users/capability-words.js';
import { guardRoleChange } from '../tools/users/role-change.js';

/**
 * An undo of a role change asks what the role tools would ask (#50, as undo-review.ts does for
 * users): a deleted role back as create-role (its power named), a created one away as
 * delete-role, a changed one as update-role; their refusals (a grant beyond the caller's, the
 * caller's own role, the last administrator) propagate. An account's own capabilities in plain
 * words, checked by the same rules.
 */
type Caps = Record<string, boolean>;
const granted = (caps: Caps) => Object.keys(caps).filter((c) => caps[c]).sort();
const denied = (caps: Caps) => Object.keys(caps).filter((c) => caps[c] === false).sort();

async function review(context: ToolContext, tool: AnyToolDefinition, raw: Record<string, unknown>): Promise<string> {
  const parsed = parseParams(tool, raw);
  if (!parsed.success || !tool.review) return `${tool.name} ${JSON.stringify(raw)}`;
  return (await tool.review(context, parsed.data as never)).summary;
}

export async function roleLines(context: ToolContext, now: UndoState, after: UndoState): Promise<string[]> {
  const lines: string[] = [];
  for (const [slug, want] of Object.entries(after.roles ?? {})) {
    const is = now.roles?.[slug] ?? null;
    if (JSON.stringify(is) === JSON.stringify(want)) continue;
    if (!want) {
      try {
        lines.push(await review(context, deleteRole, { slug, force: true }));
      } catch (err) {
        // Accounts given the role since: the engine leaves it (a conflict); the question says why.
        if ((err as { code?: string }).code !== 'role_has_users') throw err;
        lines.push(`the role ${slug} stays: ${(err as Error).message.replace(/ Nothing was changed\.$/, '')}`);
      }
    } else if (!is) {
      const caps = granted(want.capabilities);
      const deny = denied(want.capabilities);
      lines.push(await review(context, createRole, { slug, name: want.name, capabilities: caps, ...(deny.length ? { deny_capabilities: deny } : {}) }));
    } else {
      const add = granted(want.capabilities).filter((c) => !is.capabilities[c]);
      const remove = granted(is.capabilities).filter((c) => !want.capabilities[c]);
      const params = { slug, ...(want.name !== is.name ? { name: want.name } : {}), ...(add.length ? { add_capabilities: add } : {}), ...(remove.length ? { remove_capabilities: remove } : {}) };
      lines.push(add.length || remove.length || want.name !== is.name ? await review(context, updateRole, params) : `put back the denied capabilities of the role ${slug}`);
    }
  }
  for (const [key, want] of Object.entries(after.user_caps ?? {})) {
    const is = now.user_caps?.[key];
    if (!want || !is || JSON.stringify(is) === JSON.stringify(want)) continue;
    const gain = granted(want).filter((c) => !is[c]);
    await guardRoleChange(context.client, { slug: `user:${key}`, name: `user ${key}`, from: is, to: want, users: 1 });
    const power = powerWords(gain);
    lines.push(`put back user ${key}'s own capabilities (${[...granted(want), ...denied(want).map((c) => `not ${c}`)].join(', ') || 'none'})${power ? `; it grants power: ${power}` : ''}`);
  }
  return lines;
}

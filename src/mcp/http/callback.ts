import type { Request, Response } from 'express';
import { WordPressClient } from '../../client/index.js';
import type { ConsentFlow, Pending } from './consent.js';
import { checkApproval, deleteOwnAppPassword, discardApproval } from './wordpress-site.js';

/** What the callback needs of the provider (wordpress-oauth.ts). */
interface Provider {
  options: { siteUrl: string };
  consent: ConsentFlow;
  newGrant(pending: Pending, approval: { userLogin: string; appUuid: string; password: string }): Promise<string>;
}

/**
 * WordPress's redirect after approve (`site_url`, `user_login`, `password`) or reject, for a
 * pending request the person approved on our consent page (or whose consent this browser
 * remembers for the same login), in the browser that approved it: a grant and a code for the
 * client, or access_denied. Anything else gets no code: a link never issued is said, WordPress
 * not asked; for an expired or used one, or one approved in another browser (forwarded by whoever
 * approved it, #48), the application password WordPress just made is deleted, and that other
 * browser is led to our consent page for the same request.
 */
export async function wordpressCallback(provider: Provider, req: Request, res: Response): Promise<void> {
  const query = req.query as Record<string, unknown>;
  const taken = await provider.consent.take(req);
  if (!taken) {
    // Never issued: WordPress is not asked anything (the query's login and password are anyone's).
    res.status(400).type('text/plain').send('This sign-in link is unknown: start again from your MCP client.');
    return;
  }
  const { pending } = taken;
  if (taken.state !== 'live' || !taken.sameBrowser) await discardApproval(provider.options.siteUrl, query);
  if (taken.state !== 'live') {
    res
      .status(400)
      .type('text/plain')
      .send(`This sign-in link is ${taken.state === 'used' ? 'already used' : 'expired'}: start again from your MCP client.`);
    return;
  }
  if (!taken.sameBrowser) {
    if (query.rejected) {
      res.status(200).type('text/plain').send('You rejected the connection on WordPress: nothing was connected.');
      return;
    }
    res.redirect(303, provider.consent.againUrl(pending));
    return;
  }
  const back = new URL(pending.params.redirectUri);
  if (pending.params.state !== undefined) back.searchParams.set('state', pending.params.state);
  const fail = (description: string) => {
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', description);
    res.redirect(302, back.href);
  };
  const siteUrl = provider.options.siteUrl;
  const approval = await checkApproval(siteUrl, query);
  if ('refused' in approval) return fail(approval.refused);
  if (pending.rememberedLogin !== undefined && pending.rememberedLogin !== approval.userLogin) {
    // Consent remembered in this browser was given by another person: theirs is not this one's.
    const made = new WordPressClient({ url: siteUrl, username: approval.userLogin, appPassword: approval.password });
    await deleteOwnAppPassword(made, approval.userLogin, approval.appUuid);
    provider.consent.forget(res, pending.client.client_id);
    return fail(
      "this browser's consent for the app was given by another WordPress user: start again to see the consent page",
    );
  }
  const code = await provider.newGrant(pending, approval);
  provider.consent.remember(res, pending.client.client_id, approval.userLogin);
  back.searchParams.set('code', code);
  res.redirect(302, back.href);
}

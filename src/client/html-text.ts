import { decodeHTMLStrict } from 'entities';

/**
 * The one HTML-entity decoder for names, descriptions and messages WordPress sends.
 *
 * WordPress stores term names through sanitize_term_field() → wp_filter_kses, which escapes `&`
 * as `&amp;` (https://developer.wordpress.org/reference/functions/sanitize_term_field/), and
 * REST returns the stored text. Decoding exactly once gives the name as typed: a category
 * literally named `&amp;` is stored `&amp;amp;` and comes back as `&amp;`. Named entities
 * (`&eacute;`) and numeric ones (`&#039;`, `&#x41;`) both decode; strict mode leaves text
 * like `AT&T` or `&copy` without its semicolon as it is.
 */
export function decodeEntities(text: string | undefined | null): string {
  return text ? decodeHTMLStrict(text) : '';
}

/** WordPress messages sometimes carry HTML (`<strong>Error:</strong> …`); the model wants text. */
export function plainText(message: string): string {
  return decodeEntities(message.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The `<title>` of an HTML page, as text. */
export function htmlTitle(body: string): string | undefined {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body);
  const title = match ? plainText(match[1] ?? '') : '';
  return title || undefined;
}

/** Compact records returned to the model: the fields a person looks at, never `_links`/`meta`. */
export interface Category {
  id: number;
  name: string;
  slug: string;
  parent: number;
  description: string;
  count: number;
}

export interface Tag {
  id: number;
  name: string;
  slug: string;
  description: string;
  count: number;
}

/** `_fields` keeps WordPress from building (and sending) what we would throw away. */
export const CATEGORY_FIELDS = 'id,name,slug,parent,description,count';
export const TAG_FIELDS = 'id,name,slug,description,count';

type RawTerm = Partial<Category>;

/** REST returns names HTML-escaped (`&amp;`); the model should see the name as typed. */
export function decode(text: string | undefined): string {
  return (text ?? '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'");
}

export function toCategory(raw: RawTerm): Category {
  return {
    id: Number(raw.id),
    name: decode(raw.name),
    slug: raw.slug ?? '',
    parent: Number(raw.parent ?? 0),
    description: decode(raw.description),
    count: Number(raw.count ?? 0),
  };
}

export function toTag(raw: RawTerm): Tag {
  return {
    id: Number(raw.id),
    name: decode(raw.name),
    slug: raw.slug ?? '',
    description: decode(raw.description),
    count: Number(raw.count ?? 0),
  };
}

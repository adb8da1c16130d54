import { decodeEntities } from '../../client/index.js';

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

export function toCategory(raw: RawTerm): Category {
  return {
    id: Number(raw.id),
    name: decodeEntities(raw.name),
    slug: raw.slug ?? '',
    parent: Number(raw.parent ?? 0),
    description: decodeEntities(raw.description),
    count: Number(raw.count ?? 0),
  };
}

export function toTag(raw: RawTerm): Tag {
  return {
    id: Number(raw.id),
    name: decodeEntities(raw.name),
    slug: raw.slug ?? '',
    description: decodeEntities(raw.description),
    count: Number(raw.count ?? 0),
  };
}

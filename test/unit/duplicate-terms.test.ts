import { describe, expect, it } from 'vitest';
import { duplicateGroups, duplicateKey } from '../../src/tools/taxonomy/duplicate-terms.js';

describe('find-duplicate-terms: which names are one', () => {
  it('case, accents, spacing, punctuation and a plural s do not matter', () => {
    const key = duplicateKey('JavaScript');
    for (const name of ['javascript ', 'Java Script', 'Java-Script', 'JAVASCRIPTS', ' java.script']) expect(duplicateKey(name), name).toBe(key);
    expect(duplicateKey('Café')).toBe(duplicateKey('cafe'));
    expect(duplicateKey('Crème brûlée')).toBe(duplicateKey('creme-brulee'));
  });

  it('other words stay apart: a double s, short words, digits', () => {
    expect(duplicateKey('Class')).not.toBe(duplicateKey('Clas'));
    expect(duplicateKey('Bus')).not.toBe(duplicateKey('Bu'));
    expect(duplicateKey('ES6')).not.toBe(duplicateKey('ES2015'));
    expect(duplicateKey('Tag 1')).not.toBe(duplicateKey('Tag 10'));
  });

  it('groups of two or more, the most used first (then the oldest)', () => {
    const term = (id: number, name: string, posts: number) => ({ id, name, slug: String(id), parent: 0, posts });
    const groups = duplicateGroups([term(1, 'React', 1), term(2, 'react', 5), term(3, 'ReactJS', 9), term(4, 'REACT ', 5), term(5, 'Vue', 3)]);
    expect(groups).toEqual([
      { key: 'react', name: 'react', target_id: 2, terms: [term(2, 'react', 5), term(4, 'REACT ', 5), term(1, 'React', 1)] },
    ]);
  });
});

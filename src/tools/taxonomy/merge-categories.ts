import { termMergeTool } from './merge-tool.js';
import { CATEGORY } from './terms.js';

export const mergeCategories = termMergeTool({
  name: 'merge-categories',
  description:
    'Merge categories into target_id: their posts and children move to it.',
  kind: CATEGORY,
  noun: 'Category',
});

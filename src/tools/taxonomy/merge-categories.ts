import { termMergeTool } from './merge-tool.js';
import { CATEGORY } from './terms.js';

export const mergeCategories = termMergeTool({
  name: 'merge-categories',
  description:
    "Move all posts of the sources to the target, removing the sources from them; sources' children move under the target.",
  kind: CATEGORY,
  noun: 'Category',
});

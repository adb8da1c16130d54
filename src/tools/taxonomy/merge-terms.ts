import { termMergeTool } from './merge-tool.js';

export const mergeTerms = termMergeTool({
  name: 'merge-terms',
  description: 'Merge terms into target_id: their posts and children move to it.',
  noun: 'Term',
});

import { termMergeTool } from './merge-tool.js';

export const mergeTerms = termMergeTool({
  name: 'merge-terms',
  description: 'Merge terms of any taxonomy (tags too): posts of the sources get the target instead; children move under it.',
  noun: 'Term',
});

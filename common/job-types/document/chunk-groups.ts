/**
 * Past this many child workflows a document's groups grow instead: the parent's history holds a few events per
 * child (started, completed, the memo's progress), so 100 groups keep it well under a thousand events, and a
 * child's history grows with its group (about six events a chunk), so even 2,000 chunks stay near 150 a child.
 */
export const MAX_CHUNK_GROUPS = 100;

/** The chunk indexes of each child workflow: consecutive runs of `chunksPerGroup`, or more when there are many. */
export function planChunkGroups(chunks: readonly number[], chunksPerGroup: number, maxGroups = MAX_CHUNK_GROUPS): number[][] {
  const size = Math.max(1, chunksPerGroup, Math.ceil(chunks.length / maxGroups));
  const groups: number[][] = [];
  for (let start = 0; start < chunks.length; start += size) groups.push(chunks.slice(start, start + size));
  return groups;
}

/** "chunk 17 (pages 52–55)": how an operator finds a chunk in the PDF. */
export function describeChunk(index: number, span: { firstPage: number; lastPage: number } | undefined): string {
  if (!span) return `chunk ${index}`;
  const pages = span.firstPage === span.lastPage ? `page ${span.firstPage}` : `pages ${span.firstPage}–${span.lastPage}`;
  return `chunk ${index} (${pages})`;
}
